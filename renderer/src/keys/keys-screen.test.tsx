// The keys list shows what main computed about each key (its state) and its limit in words; it decides nothing.

import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyWithUsage } from '../../../shared/api/index.js';
import type { BridgeClient } from '../../../shared/bridge/client.js';
import { BridgeProvider } from '../bridge/bridge-context.js';
import { KeysScreen } from './keys-screen.js';
import { editorPluginKey } from './test-keys.js';

afterEach(cleanup);

// A key that reached its weekly limit (the rules the list does not show are the editor plugin's).
const base: KeyWithUsage = {
  ...editorPluginKey,
  id: 'key-1',
  name: 'ci script',
  limit: 5,
  limit_reset: 'weekly',
  state: 'limit_reached',
  limit_remaining: 0,
  limit_resets_at: '2026-03-16T00:00:00.000Z',
  usage: { requests: 3, cost: 5, unpriced_requests: 0 },
};

function renderScreen(keys: KeyWithUsage[]) {
  const answers: Record<string, unknown> = { 'keys:list': { keys }, 'models:list': { models: [] } };
  const bridge = { invoke: async (channel: string) => answers[channel], on: () => () => undefined };
  render(
    <BridgeProvider bridge={bridge as unknown as BridgeClient}>
      <KeysScreen />
    </BridgeProvider>,
  );
}

describe('KeysScreen', () => {
  it('shows each key’s state as main sent it, and its limit with the window it resets in', async () => {
    renderScreen([
      base,
      // An expiry in the past that main still calls active (its clock decides, not the renderer's).
      {
        ...base,
        id: 'key-2',
        name: 'editor plugin',
        limit: null,
        limit_reset: 'never',
        expires_at: '2000-01-01T00:00:00.000Z',
        state: 'active',
        limit_remaining: null,
        limit_resets_at: null,
      },
      { ...base, id: 'key-3', name: 'old', limit: 2, limit_reset: 'never', disabled: true, state: 'disabled' },
    ]);
    const cells = async (name: string) =>
      within(await screen.findByRole('row', { name: new RegExp(`^${name}`) }))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);

    const limited = await cells('ci script');
    expect(limited).toContain('$5.00 weekly');
    expect(limited).toContain('limit reached');
    const badge = within(await screen.findByRole('row', { name: /ci script/ })).getByText('limit reached');
    expect(badge.className).toBe('badge state-limit_reached');

    const unlimited = await cells('editor plugin');
    expect(unlimited).toContain('none');
    expect(unlimited).toContain('active');
    expect(unlimited).not.toContain('expired');

    const disabled = await cells('old');
    expect(disabled).toContain('$2.00');
    expect(disabled).toContain('disabled');
  });
});
