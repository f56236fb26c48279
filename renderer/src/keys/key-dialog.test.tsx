// The key dialog with a recording bridge: what it sends to create or change a key, the secret shown once, and the
// errors it shows in place.

import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiKeyDetails } from '../../../shared/api/index.js';
import type { BridgeClient } from '../../../shared/bridge/client.js';
import type { ModelOption } from '../../../shared/bridge/types.js';
import { BridgeProvider } from '../bridge/bridge-context.js';
import { KeyDialog } from './key-dialog.js';
import { editorPluginRules, editorPluginKey } from './test-keys.js';

afterEach(cleanup);

const models: ModelOption[] = [
  { id: 'fake/echo-1', name: 'echo-1', provider: 'fake', acceptsImages: false },
  { id: 'fake/echo-2', name: 'echo-2', provider: 'fake', acceptsImages: false },
];

const existing = editorPluginKey;

/** A bridge that records what the dialog invokes and answers with `answer`. */
function recordingBridge(answer: (channel: string, request: unknown) => unknown) {
  const invoke = vi.fn(async (channel: string, request?: unknown) => answer(channel, request));
  const bridge = { invoke, on: () => () => undefined } as unknown as BridgeClient;
  return { bridge, invoke };
}

function renderDialog(bridge: BridgeClient, apiKey?: ApiKeyDetails) {
  const onClose = vi.fn();
  const onSaved = vi.fn();
  render(
    <BridgeProvider bridge={bridge}>
      <KeyDialog apiKey={apiKey} models={models} onClose={onClose} onSaved={onSaved} />
    </BridgeProvider>,
  );
  return { onClose, onSaved, user: userEvent.setup() };
}

const checkbox = (name: RegExp | string) => screen.getByRole<HTMLInputElement>('checkbox', { name });

describe('KeyDialog', () => {
  it('creates a key without the management right unless ticked, then shows its secret once', async () => {
    const { bridge, invoke } = recordingBridge(() => ({
      key: { ...existing, name: 'ci script' },
      secret: 'sk-sy-v1-secret',
    }));
    const { onClose, onSaved, user } = renderDialog(bridge);
    expect(screen.getByRole('dialog', { name: 'Create an API key' })).toBeTruthy();
    expect(checkbox(/^Management key/).checked).toBe(false);
    expect(screen.queryByRole('checkbox', { name: /^Disabled/ })).toBeNull(); // only when editing

    await user.type(screen.getByLabelText('Name'), '  ci script ');
    await user.type(screen.getByLabelText('Spend limit (USD)'), '5');
    await user.selectOptions(screen.getByLabelText('Limit resets'), 'weekly');
    await user.click(screen.getByRole('button', { name: 'Create key' }));

    expect(invoke).toHaveBeenCalledTimes(1);
    expect(invoke).toHaveBeenCalledWith('keys:create', {
      name: 'ci script',
      limit: 5,
      limit_reset: 'weekly',
      allowed_models: null,
      allowed_providers: null,
      management: false,
      metrics: false,
      expires_at: null,
      requests_per_minute: null,
      tokens_per_minute: null,
      allowed_mcp: null,
    });
    const shown = await screen.findByRole('dialog', { name: 'Key "ci script" created' });
    expect(shown).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'New API key' }).value).toBe('sk-sy-v1-secret');
    expect(screen.getByRole('alert').textContent).toMatch(/only time it is shown/);
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('sends the management right when ticked', async () => {
    const { bridge, invoke } = recordingBridge(() => ({ key: existing, secret: 'sk-sy-v1-secret' }));
    const { user } = renderDialog(bridge);
    await user.type(screen.getByLabelText('Name'), 'admin');
    await user.click(checkbox(/^Management key/));
    expect(checkbox(/^Management key/).checked).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(invoke).toHaveBeenCalledWith('keys:create', expect.objectContaining({ name: 'admin', management: true }));
  });

  it('sends the metrics right when ticked', async () => {
    const { bridge, invoke } = recordingBridge(() => ({ key: existing, secret: 'sk-sy-v1-secret' }));
    const { user } = renderDialog(bridge);
    await user.type(screen.getByLabelText('Name'), 'prometheus');
    expect(checkbox(/^Metrics/).checked).toBe(false);
    await user.click(checkbox(/^Metrics/));
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(invoke).toHaveBeenCalledWith('keys:create', expect.objectContaining({ name: 'prometheus', metrics: true }));
  });

  it('restricts a key to the chosen models, patterns and providers', async () => {
    const { bridge, invoke } = recordingBridge(() => ({ key: existing, secret: 'sk-sy-v1-secret' }));
    const { user } = renderDialog(bridge);
    await user.type(screen.getByLabelText('Name'), 'narrow');
    await user.click(screen.getByRole('radio', { name: 'Only these' }));
    await user.click(checkbox('fake/echo-2'));
    await user.click(checkbox('fake/echo-1'));
    await user.click(checkbox('fake/echo-1'));
    await user.type(screen.getByLabelText('Other models'), 'openai/*, , anthropic/claude-x');
    await user.type(screen.getByLabelText('Providers'), 'ollama');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(invoke).toHaveBeenCalledWith(
      'keys:create',
      expect.objectContaining({
        allowed_models: ['fake/echo-2', 'openai/*', 'anthropic/claude-x'],
        allowed_providers: ['ollama'],
      }),
    );
  });

  it('asks for a model or provider when "Only these" has none, and sends nothing', async () => {
    const { bridge, invoke } = recordingBridge(() => ({ key: existing, secret: 'sk-sy-v1-secret' }));
    const { onSaved, user } = renderDialog(bridge);
    await user.type(screen.getByLabelText('Name'), 'narrow');
    await user.click(screen.getByRole('radio', { name: 'Only these' }));
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose at least one model or provider, or allow all models.');
    expect(invoke).not.toHaveBeenCalled();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('edits a key from its rules as they are, and sends its disabled flag', async () => {
    const { bridge, invoke } = recordingBridge(() => ({ key: existing }));
    const { onSaved, user } = renderDialog(bridge, existing);
    expect(screen.getByRole('dialog', { name: 'Edit key editor plugin' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('editor plugin');
    expect(checkbox(/^Management key/).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Only these' }).checked).toBe(true);
    expect(checkbox('fake/echo-2').checked).toBe(true);
    expect(checkbox('fake/echo-1').checked).toBe(false);
    expect(screen.getByLabelText<HTMLInputElement>('Other models').value).toBe('openai/*');
    expect(screen.getByLabelText<HTMLInputElement>('Requests per minute').value).toBe('60');

    await user.click(checkbox(/^Disabled/));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // Every rule as the key has it; only the disabled flag changed.
    expect(invoke).toHaveBeenCalledWith('keys:update', { id: 'key-7', ...editorPluginRules, disabled: true });
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it('renames a key, sending the new name with its rules', async () => {
    const { bridge, invoke } = recordingBridge(() => ({ key: existing }));
    const { user } = renderDialog(bridge, existing);
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'vs code');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(invoke).toHaveBeenCalledWith('keys:update', { id: 'key-7', name: 'vs code', ...editorPluginRules });
  });

  it('shows an existing key’s metrics right ticked', () => {
    const { bridge } = recordingBridge(() => ({ key: existing }));
    renderDialog(bridge, { ...existing, metrics: true });
    expect(checkbox(/^Metrics/).checked).toBe(true);
  });

  it('keeps an existing key’s missing management right when editing', () => {
    const { bridge } = recordingBridge(() => ({ key: existing }));
    renderDialog(bridge, { ...existing, management: false });
    expect(checkbox(/^Management key/).checked).toBe(false);
  });

  it('shows the bridge’s error in place and lets the person try again', async () => {
    const { bridge } = recordingBridge(() => {
      throw new Error('a key named "ci" exists');
    });
    const { onSaved, user } = renderDialog(bridge);
    await user.type(screen.getByLabelText('Name'), 'ci');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect((await screen.findByRole('alert')).textContent).toBe('a key named "ci" exists');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Create key' }).disabled).toBe(false);
    expect(onSaved).not.toHaveBeenCalled();
  });
});
