// The Providers screen's model aliases against an in-memory bridge: the list, adding one (a model picked from the
// providers' list or typed), pointing one elsewhere, removing one, and the errors shown in place.

import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { singleTarget, type ModelAliasInfo } from '../../../shared/api/index.js';
import type { BridgeClient } from '../../../shared/bridge/client.js';
import type { ModelOption } from '../../../shared/bridge/types.js';
import { BridgeProvider } from '../bridge/bridge-context.js';
import { ProvidersScreen } from './providers-screen.js';

afterEach(cleanup);

const models: ModelOption[] = [
  { id: 'fake/echo-1', name: 'echo-1', provider: 'fake', acceptsImages: false },
  { id: 'fake/echo-2', name: 'echo-2', provider: 'fake', acceptsImages: false },
];
const createdAt = '2026-03-01T00:00:00.000Z';

/** A bridge keeping aliases in memory, recording what the screen invokes; `refuse` makes aliases:set fail. */
function aliasBridge(initial: ModelAliasInfo[], refuse?: string) {
  const aliases = new Map(initial.map((alias) => [alias.name, alias]));
  const invoke = vi.fn(async (channel: string, request?: unknown): Promise<unknown> => {
    const { name, target, targets, strategy, weights } = (request ?? {}) as { name: string; target: string } & Partial<
      Omit<ModelAliasInfo, 'name' | 'target'>
    >;
    switch (channel) {
      case 'providers:list':
        return { providers: [] };
      case 'prices:list':
        return { prices: [] };
      case 'models:list':
        return { models };
      case 'aliases:list':
        return { aliases: [...aliases.values()].sort((a, b) => a.name.localeCompare(b.name)) };
      case 'aliases:set': {
        if (refuse) throw Object.assign(new Error(refuse), { code: 'invalid-request' });
        const previous = aliases.get(name) ?? null;
        const alias: ModelAliasInfo = {
          name,
          target,
          targets: targets ?? [target],
          strategy: strategy ?? 'ordered',
          weights: weights ?? null,
          created_at: previous?.created_at ?? createdAt,
        };
        aliases.set(name, alias);
        return { alias, previous };
      }
      case 'aliases:remove':
        return { removed: aliases.delete(name) };
      default:
        throw new Error(`unexpected ${channel}`);
    }
  });
  return { bridge: { invoke, on: () => () => undefined } as unknown as BridgeClient, invoke };
}

function renderScreen(bridge: BridgeClient) {
  render(
    <BridgeProvider bridge={bridge}>
      <ProvidersScreen />
    </BridgeProvider>,
  );
  return userEvent.setup();
}

async function aliasRows(): Promise<string[][]> {
  const table = await screen.findByRole('table', { name: 'Model aliases' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(0, 2)
        .map((cell) => cell.textContent ?? ''),
    );
}

describe('Model aliases on the Providers screen', () => {
  it('says there are none, then adds one with a model picked from the providers’ list', async () => {
    const { bridge, invoke } = aliasBridge([]);
    const user = renderScreen(bridge);
    expect(await screen.findByText('No aliases yet.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Add an alias' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a model alias' });
    await user.type(within(dialog).getByLabelText('Alias'), ' claude-sonnet-4-5 ');
    const model = within(dialog).getByLabelText('Model');
    // The providers' models are offered as suggestions of the model field.
    const listId = model.getAttribute('list')!;
    await vi.waitFor(() => expect(document.getElementById(listId)?.querySelectorAll('option')).toHaveLength(2));
    expect([...document.getElementById(listId)!.querySelectorAll('option')].map((option) => option.value)).toEqual([
      'fake/echo-1',
      'fake/echo-2',
    ]);
    await user.type(model, 'fake/echo-2');
    await user.click(within(dialog).getByRole('button', { name: 'Save alias' }));

    expect(invoke).toHaveBeenCalledWith('aliases:set', { name: 'claude-sonnet-4-5', target: 'fake/echo-2' });
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await aliasRows()).toEqual([['claude-sonnet-4-5', 'fake/echo-2']]);
  });

  it('points an alias at another model, and removes one', async () => {
    const { bridge, invoke } = aliasBridge([
      { name: 'gpt-5-codex', target: 'fake/echo-1', ...singleTarget('fake/echo-1'), created_at: createdAt },
      { name: 'haiku', target: 'fake/echo-2', ...singleTarget('fake/echo-2'), created_at: createdAt },
    ]);
    const user = renderScreen(bridge);
    expect(await aliasRows()).toEqual([
      ['gpt-5-codex', 'fake/echo-1'],
      ['haiku', 'fake/echo-2'],
    ]);

    await user.click(screen.getByRole('button', { name: 'Change the model of gpt-5-codex' }));
    const dialog = screen.getByRole('dialog', { name: 'Alias gpt-5-codex' });
    expect(within(dialog).queryByLabelText('Alias')).toBeNull();
    const model = within(dialog).getByLabelText<HTMLInputElement>('Model');
    expect(model.value).toBe('fake/echo-1');
    await user.clear(model);
    await user.type(model, 'other/big-model');
    await user.click(within(dialog).getByRole('button', { name: 'Save alias' }));
    expect(invoke).toHaveBeenCalledWith('aliases:set', { name: 'gpt-5-codex', target: 'other/big-model' });
    await vi.waitFor(async () => expect((await aliasRows())[0]).toEqual(['gpt-5-codex', 'other/big-model']));

    await user.click(screen.getByRole('button', { name: 'Remove the alias haiku' }));
    expect(invoke).toHaveBeenCalledWith('aliases:remove', { name: 'haiku' });
    await vi.waitFor(async () => expect(await aliasRows()).toEqual([['gpt-5-codex', 'other/big-model']]));
  });

  it('makes a model group: more models, a strategy, weights; the list shows them and the dialog edits them', async () => {
    const { bridge, invoke } = aliasBridge([]);
    const user = renderScreen(bridge);
    await user.click(await screen.findByRole('button', { name: 'Add an alias' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a model alias' });
    await user.type(within(dialog).getByLabelText('Alias'), 'team');
    await user.type(within(dialog).getByLabelText('Model'), 'fake/echo-1');
    // One model: no strategy to choose.
    expect(within(dialog).queryByLabelText('Strategy')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Add another model' }));
    await user.type(within(dialog).getByLabelText('Model 2'), 'fake/echo-2');
    await user.selectOptions(within(dialog).getByLabelText('Strategy'), 'weighted');
    await user.type(within(dialog).getByLabelText('Weights'), '3, x');
    await user.click(within(dialog).getByRole('button', { name: 'Save alias' }));
    expect(within(dialog).getByText(/Weights are positive numbers/)).toBeTruthy();
    expect(invoke).not.toHaveBeenCalledWith('aliases:set', expect.anything());
    await user.clear(within(dialog).getByLabelText('Weights'));
    await user.type(within(dialog).getByLabelText('Weights'), '3, 1');
    await user.click(within(dialog).getByRole('button', { name: 'Save alias' }));
    expect(invoke).toHaveBeenCalledWith('aliases:set', {
      name: 'team',
      target: 'fake/echo-1',
      targets: ['fake/echo-1', 'fake/echo-2'],
      strategy: 'weighted',
      weights: [3, 1],
    });
    await vi.waitFor(async () =>
      expect(await aliasRows()).toEqual([['team', 'fake/echo-1, fake/echo-2 (weighted 3,1)']]),
    );

    await user.click(screen.getByRole('button', { name: 'Change the model of team' }));
    const editing = screen.getByRole('dialog', { name: 'Alias team' });
    expect(within(editing).getByLabelText<HTMLInputElement>('Model 2').value).toBe('fake/echo-2');
    expect(within(editing).getByLabelText<HTMLInputElement>('Weights').value).toBe('3, 1');
    await user.click(within(editing).getByRole('button', { name: 'Remove model 2' }));
    expect(within(editing).queryByLabelText('Strategy')).toBeNull();
    await user.click(within(editing).getByRole('button', { name: 'Save alias' }));
    expect(invoke).toHaveBeenCalledWith('aliases:set', { name: 'team', target: 'fake/echo-1' });
    await vi.waitFor(async () => expect(await aliasRows()).toEqual([['team', 'fake/echo-1']]));
  });

  it('shows a bad name at its field without asking main, and main’s refusal in the dialog', async () => {
    const { bridge, invoke } = aliasBridge([], 'target: must be "<provider>/<model>"');
    const user = renderScreen(bridge);
    await user.click(await screen.findByRole('button', { name: 'Add an alias' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a model alias' });
    const name = within(dialog).getByLabelText('Alias');
    await user.type(name, 'openai/gpt-4o');
    await user.type(within(dialog).getByLabelText('Model'), 'gpt-4o');
    await user.click(within(dialog).getByRole('button', { name: 'Save alias' }));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText(/has a "\/"/)).toBeTruthy();
    expect(invoke).not.toHaveBeenCalledWith('aliases:set', expect.anything());

    await user.clear(name);
    await user.type(name, 'fast');
    await user.click(within(dialog).getByRole('button', { name: 'Save alias' }));
    expect(await within(dialog).findByText('target: must be "<provider>/<model>"')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBeNull();
  });
});
