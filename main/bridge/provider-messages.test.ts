// What the Providers screen tells a person in its small words: where a key typed into the form is really stored,
// and a failed test that names the provider (by the id typed in the form, not a placeholder) and says what to
// check for that kind of failure.

import { describe, expect, it } from 'vitest';
import type { BridgeChannel, BridgeRequest, BridgeResponse } from '../../shared/bridge/contract.js';
import type { FakeUpstream } from '../../test/support/fake-openai-upstream.js';
import type { BridgeHandlers } from './create-bridge-handlers.js';
import { useBridgeApp } from './test-support.js';

let dataDir: string;
let bridge: BridgeHandlers;
let upstream: FakeUpstream;

async function call<C extends BridgeChannel>(channel: C, request: BridgeRequest<C>): Promise<BridgeResponse<C>> {
  const result = await bridge.invoke(channel, request);
  if (!result.ok) throw new Error(result.error.message);
  return result.value as BridgeResponse<C>;
}

useBridgeApp((started) => ({ dataDir, bridge, upstream } = started), { models: ['echo-1'] });

describe('where a provider key is stored', () => {
  it('is the 0600 file, by its path, when there is no keychain', async () => {
    const store = await call('providers:key-store', {});
    expect(store.kind).toBe('file');
    expect(store.location.startsWith(dataDir)).toBe(true);
  });
});

describe('a failed provider test', () => {
  it('names the provider by the id typed, and says to check the base URL and network when nothing answers', async () => {
    const result = await call('providers:test-settings', {
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: null,
      id: 'my-local',
    });
    expect(result.ok).toBe(false);
    expect(result.message).toContain('provider "my-local"');
    expect(result.message).not.toContain('unsaved');
    expect(result.message).toMatch(/Check its base URL, and that this machine reaches it/);
  });

  it('says to check the API key when the provider rejects it', async () => {
    upstream.modelsStatus = 401;
    await call('providers:add', { id: 'fake', kind: 'openai', baseUrl: upstream.baseUrl, apiKey: 'sk-wrong-key-0000' });
    const result = await call('providers:test', { id: 'fake' });
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^Provider "fake" rejected its API key \(upstream 401\)\. Check its API key\.$/);
  });

  it('says to check the base URL when the models are not where it points', async () => {
    upstream.modelsStatus = 404;
    const result = await call('providers:test-settings', { kind: 'openai', baseUrl: upstream.baseUrl, id: 'fake' });
    expect(result.message).toMatch(/Check its base URL: the models are listed at <base URL>\/models\.$/);
  });

  it('without an id typed yet, still reads as a provider', async () => {
    const result = await call('providers:test-settings', {
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      id: 'Not An Id',
    });
    expect(result.message).toContain('provider "new-provider"');
  });
});
