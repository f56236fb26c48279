// The hub's tool calls in Activity: each call's key (or stdio), client, server, tool, duration and outcome.

import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BridgeClient } from '../../../shared/bridge/client.js';
import type { McpHubCall } from '../../../shared/bridge/types.js';
import { BridgeProvider } from '../bridge/bridge-context.js';
import { HubCallsPanel } from './hub-calls-panel.js';

afterEach(cleanup);

function renderPanel(calls: McpHubCall[]) {
  const invoke = vi.fn(async () => ({ calls }));
  const bridge = { invoke, on: () => () => undefined } as unknown as BridgeClient;
  render(
    <BridgeProvider bridge={bridge}>
      <HubCallsPanel />
    </BridgeProvider>,
  );
  return invoke;
}

const base = { createdAt: Date.parse('2026-11-24T10:00:00Z'), client: 'claude-ai', durationMs: 1234 };

describe('HubCallsPanel', () => {
  it('lists the calls with their key, client, server, tool, duration and outcome', async () => {
    const invoke = renderPanel([
      { ...base, keyId: 'k1', keyName: 'desktop', server: 'files', tool: 'read_text_file', error: null },
      { ...base, keyId: null, keyName: null, server: 'everything', tool: 'echo', error: 'Error: boom' },
    ]);
    const table = await screen.findByRole('table', { name: 'MCP hub tool calls' });
    expect(invoke).toHaveBeenCalledWith('mcp:hub-calls', { limit: 50 });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((cell) => cell.textContent),
        )
        .map((cells) => cells.slice(1)),
    ).toEqual([
      ['desktop', 'claude-ai', 'files', 'read_text_file', `${(1234).toLocaleString()} ms`, 'ok'],
      ['stdio (no key)', 'claude-ai', 'everything', 'echo', `${(1234).toLocaleString()} ms`, 'error'],
    ]);
    expect(within(rows[1]!).getByText('error').getAttribute('title')).toBe('Error: boom');
  });

  it('says where calls come from while there are none', async () => {
    renderPanel([]);
    expect(await screen.findByText(/No calls yet/)).toBeTruthy();
  });
});
