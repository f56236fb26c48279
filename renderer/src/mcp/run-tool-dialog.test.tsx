// The run dialog's form, made from a tool's input schema: every kind of field, required marks, defaults and
// descriptions, errors at the field, and the JSON editor editing the same arguments.

import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BridgeClient } from '../../../shared/bridge/client.js';
import type { McpTool } from '../../../shared/bridge/types.js';
import { BridgeProvider } from '../bridge/bridge-context.js';
import { RunToolDialog } from './run-tool-dialog.js';

afterEach(cleanup);

const tool: McpTool = {
  name: 'search',
  description: 'Searches the notes.',
  autoApprove: false,
  disabled: false,
  schemaTokens: 80,
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to look for' },
      limit: { type: 'integer', default: 10, description: 'At most this many' },
      score: { type: 'number' },
      exact: { type: 'boolean', default: false },
      order: { type: 'string', enum: ['newest', 'oldest'] },
      tags: { type: 'array', items: { type: 'string' } },
      within: {
        type: 'object',
        description: 'Where to search',
        properties: { folder: { type: 'string' }, depth: { type: 'integer' } },
        required: ['folder'],
      },
    },
    required: ['query', 'order'],
  },
};

function open(schema: unknown = tool.inputSchema) {
  const invoke = vi.fn(async () => ({ isError: false, text: 'found 2', media: [] }));
  const bridge = { invoke, on: () => () => undefined } as unknown as BridgeClient;
  render(
    <BridgeProvider bridge={bridge}>
      <RunToolDialog server="notes" tool={{ ...tool, inputSchema: schema }} onClose={() => undefined} />
    </BridgeProvider>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Run search' });
  const run = () => fireEvent.click(within(dialog).getByRole('button', { name: 'Run' }));
  return { dialog, invoke, run };
}

const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

describe('RunToolDialog', () => {
  it('shows a field for each argument, required ones marked, with descriptions and defaults', () => {
    const { dialog } = open();
    const query = within(dialog).getByRole('textbox', { name: /^query/ });
    expect(query.getAttribute('aria-required')).toBe('true');
    expect(query.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(dialog).getByText('What to look for.')).toBeTruthy();
    const limit = within(dialog).getByRole('textbox', { name: /^limit/ }) as HTMLInputElement;
    expect(limit.value).toBe('10');
    expect(limit.getAttribute('aria-required')).toBeNull();
    expect(within(dialog).getByText('At most this many. Default: 10.')).toBeTruthy();
    expect((within(dialog).getByRole('checkbox', { name: /^exact/ }) as HTMLInputElement).checked).toBe(false);
    const order = within(dialog).getByRole('combobox', { name: /^order/ });
    expect(
      within(order)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose…', 'newest', 'oldest']);
    expect(within(dialog).getByText('One per line.')).toBeTruthy();
    const group = within(dialog).getByRole('group', { name: /^within/ });
    expect(
      within(group)
        .getByRole('textbox', { name: /^folder/ })
        .getAttribute('aria-required'),
    ).toBe('true');
    expect(within(group).getByRole('textbox', { name: /^depth/ })).toBeTruthy();
  });

  it('shows what is wrong at the field and runs nothing, then runs with the typed arguments', async () => {
    const { dialog, invoke, run } = open();
    type(within(dialog).getByRole('textbox', { name: /^limit/ }), '2.5');
    run();
    const query = within(dialog).getByRole('textbox', { name: /^query/ });
    expect(query.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(query.getAttribute('aria-describedby')!)?.textContent).toBe('Required.');
    expect(within(dialog).getByText('Must be a whole number.')).toBeTruthy();
    expect(invoke).not.toHaveBeenCalled();

    type(query, 'plans');
    type(within(dialog).getByRole('textbox', { name: /^limit/ }), '3');
    type(within(dialog).getByRole('textbox', { name: /^score/ }), '0.75');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /^exact/ }));
    type(within(dialog).getByRole('combobox', { name: /^order/ }), '1');
    type(within(dialog).getByRole('textbox', { name: /^tags/ }), 'work\n\nhome');
    type(within(dialog).getByRole('textbox', { name: /^folder/ }), 'inbox');
    expect(query.getAttribute('aria-invalid')).toBeNull();
    run();
    await within(dialog).findByText('found 2');
    expect(invoke).toHaveBeenCalledWith('mcp:call-tool', {
      name: 'notes',
      tool: 'search',
      arguments: {
        query: 'plans',
        limit: 3,
        score: 0.75,
        exact: true,
        order: 'oldest',
        tags: ['work', 'home'],
        within: { folder: 'inbox' },
      },
    });
  });

  it('edits the same arguments as JSON, both ways', async () => {
    const { dialog, invoke, run } = open();
    type(within(dialog).getByRole('textbox', { name: /^query/ }), 'plans');
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Edit the arguments as JSON' }));
    const json = within(dialog).getByRole('textbox', { name: 'Arguments (JSON)' }) as HTMLTextAreaElement;
    expect(JSON.parse(json.value)).toEqual({ query: 'plans', limit: 10, exact: false });

    type(json, '{"query": "plans", "order": "newest", "limit": "many"');
    expect(json.getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Edit the arguments as JSON' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Fix the JSON before going back to the form.');

    type(json, '{"query": "plans", "order": "newest", "limit": "many"}');
    run();
    expect(within(dialog).getByRole('alert').textContent).toBe('limit: Must be a whole number.');
    expect(invoke).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('switch', { name: 'Edit the arguments as JSON' }));
    expect((within(dialog).getByRole('textbox', { name: /^limit/ }) as HTMLInputElement).value).toBe('many');
    expect(within(dialog).getByText('Must be a whole number.')).toBeTruthy();
    expect((within(dialog).getByRole('combobox', { name: /^order/ }) as HTMLSelectElement).value).toBe('0');
    type(within(dialog).getByRole('textbox', { name: /^limit/ }), '4');
    run();
    await within(dialog).findByText('found 2');
    expect(invoke).toHaveBeenCalledWith('mcp:call-tool', {
      name: 'notes',
      tool: 'search',
      arguments: { query: 'plans', order: 'newest', limit: 4 },
    });
  });

  it('offers only JSON for a schema the form cannot show', () => {
    const { dialog } = open({ type: 'object', properties: { rows: { type: 'array', items: { type: 'object' } } } });
    expect(within(dialog).queryByRole('switch')).toBeNull();
    expect(within(dialog).getByText(/Its input schema has parts the form cannot show/)).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: 'Arguments (JSON)' })).toBeTruthy();
  });
});
