// The response cache's panel with a recording bridge: what it stores, a TTL it refuses at the field (nothing sent,
// the typed text kept), the warning for answers shared between keys, and the note when `serve`'s flag wins.

import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResponseCacheChoice, ResponseCacheSettingView } from '../../../shared/api/index.js';
import type { BridgeClient } from '../../../shared/bridge/client.js';
import { BridgeProvider } from '../bridge/bridge-context.js';
import { CacheSettingPanel } from './cache-setting-panel.js';

afterEach(cleanup);

function renderPanel(flags: Partial<ResponseCacheChoice> = {}) {
  let stored: ResponseCacheChoice = { ttlSeconds: 0, scope: 'key' };
  const view = (): ResponseCacheSettingView => ({
    stored,
    effective: { ...stored, ...flags },
    overridden: { ttlSeconds: flags.ttlSeconds !== undefined, scope: flags.scope !== undefined },
  });
  const invoke = vi.fn(async (channel: string, request?: unknown) => {
    if (channel === 'gateway:cache-setting') return view();
    if (channel === 'gateway:set-cache-setting') {
      stored = request as ResponseCacheChoice;
      return view();
    }
    throw new Error(`unexpected ${channel}`);
  });
  const bridge = { invoke, on: () => () => undefined } as unknown as BridgeClient;
  render(
    <BridgeProvider bridge={bridge}>
      <CacheSettingPanel />
    </BridgeProvider>,
  );
  return { invoke, user: userEvent.setup() };
}

const saves = (invoke: ReturnType<typeof renderPanel>['invoke']) =>
  invoke.mock.calls.filter(([channel]) => channel === 'gateway:set-cache-setting');

describe('CacheSettingPanel', () => {
  it('stores the TTL and scope, warns that a shared cache shares answers, and says what the gateway runs with', async () => {
    const { invoke, user } = renderPanel();
    const ttl = await screen.findByLabelText('Keep answers for (seconds)');
    expect(ttl).toHaveProperty('value', '0');
    expect(screen.getByLabelText('Running with').textContent).toBe('Running with: off.');
    expect(screen.queryByRole('note')).toBeNull();

    await user.clear(ttl);
    await user.type(ttl, '300');
    await user.selectOptions(screen.getByLabelText('Scope'), 'all');
    expect(screen.getByRole('note').textContent).toMatch(/an answer made for one key is served to every other key/);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(saves(invoke)).toEqual([['gateway:set-cache-setting', { ttlSeconds: 300, scope: 'all' }]]);
    expect((await screen.findByRole('status')).textContent).toBe('Saved: the next request uses it.');
    expect(screen.getByLabelText('Running with').textContent).toBe(
      'Running with: answers kept 300 s, shared between keys.',
    );
  });

  it('refuses a TTL that is not whole seconds up to a year at the field, keeping what was typed', async () => {
    const { invoke, user } = renderPanel();
    const ttl = await screen.findByLabelText('Keep answers for (seconds)');
    for (const typed of ['1.5', 'ten', '-4', '31536001']) {
      await user.clear(ttl);
      await user.type(ttl, typed);
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(ttl).toHaveProperty('value', typed);
      expect(ttl.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(ttl.getAttribute('aria-describedby')!)?.textContent).toMatch(/whole seconds/);
    }
    await user.clear(ttl);
    expect(ttl.getAttribute('aria-invalid')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(ttl.getAttribute('aria-invalid')).toBe('true');
    expect(saves(invoke)).toEqual([]);
  });

  it('says when a serve flag wins over the stored setting', async () => {
    renderPanel({ ttlSeconds: 60 });
    expect((await screen.findByRole('note')).textContent).toBe(
      'This server was started with --cache-ttl 60: the flag wins over this setting until the server is started without it.',
    );
    expect(screen.getByLabelText('Keep answers for (seconds)')).toHaveProperty('value', '0');
    expect(screen.getByLabelText('Running with').textContent).toBe('Running with: answers kept 60 s, per key.');
  });
});
