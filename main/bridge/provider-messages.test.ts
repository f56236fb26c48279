// What the Providers screen tells a person in its small words: where a key typed into the form is really stored,
// and a failed test that names the provider (by the id typed in the form, not a placeholder) and says what to
// check for that kind of failure.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BridgeChannel, BridgeRequest, BridgeResponse } from '../../shared/bridge/contract.js';
import { startFakeUpstream, type FakeUpstream } from '../../test/support/fake-openai-upstream.js';
import { createApp, type App } from '../app/index.js';
import { createBridgeHandlers, type BridgeHandlers } from './create-bridge-handlers.js';

let dataDir: string;
let app: App;
let bridge: BridgeHandlers;
let upstream: FakeUpstream;

async function call<C extends BridgeChannel>(channel: C, request: BridgeRequest<C>): Promise<BridgeResponse<C>> {
  const result = await bridge.invoke(channel, request);
  if (!result.ok) throw new Error(result.error.message);
  return result.value as BridgeResponse<C>;
}

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-provider-messages-'));
  upstream = await startFakeUpstream({ models: ['echo-1'] });
  app = createApp({
    dataDir,
    secretStoreMode: 'file',
    localProviders: false,
    env: {},
    logger: pino({ level: 'silent' }),
  });
  bridge = createBridgeHandlers(app, { appInfo: () => ({ version: '0.0.0', gatewayUrl: null }) });
});

afterEach(async () => {
  bridge?.dispose();
  await app?.close();
  await upstream?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

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
