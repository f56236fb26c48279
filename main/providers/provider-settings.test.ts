import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api/index.js';
import { useStoreEachTest } from '../../test/support/store-each-test.js';
import { openSecretStore, type SecretStore } from '../secrets/index.js';
import type { Store } from '../store/index.js';
import { ProviderSettings, secretAccountFor, validateNewProvider } from './provider-settings.js';

const temp = useStoreEachTest();
let store: Store;
let secrets: SecretStore;
let settings: ProviderSettings;

beforeEach(async () => {
  store = temp.store;
  secrets = (await openSecretStore({ dataDir: temp.dataDir, mode: 'file' })).store;
  settings = new ProviderSettings(store, async () => secrets);
});

/** What adding an OpenAI-compatible provider sends. */
function openAICompatible(id: string, baseUrl: string, apiKey: string | null) {
  return { id, kind: 'openai' as const, baseUrl, apiKey };
}

describe('provider settings', () => {
  it('keeps the secret in the secret store and only a flag in the database', async () => {
    const added = await settings.add(openAICompatible('openai', 'https://api.example/v1/', 'sk-x'));
    expect(added).toMatchObject({
      id: 'openai',
      kind: 'openai',
      base_url: 'https://api.example/v1',
      has_api_key: true,
    });
    expect(await secrets.get(secretAccountFor('openai'))).toBe('sk-x');
    expect(JSON.stringify(settings.list())).not.toContain('sk-x');
  });

  it('replacing a provider without a key removes the old key and keeps the creation time', async () => {
    const first = await settings.add(openAICompatible('local', 'http://127.0.0.1:1/v1', 'sk-old'));
    const second = await settings.add(openAICompatible('local', 'http://127.0.0.1:2/v1', null));
    expect(second.has_api_key).toBe(false);
    expect(second.created_at).toBe(first.created_at);
    expect(second.base_url).toBe('http://127.0.0.1:2/v1');
    expect(await secrets.get(secretAccountFor('local'))).toBeNull();
  });

  it('removes the row and the secret together', async () => {
    await settings.add(openAICompatible('gone', 'http://127.0.0.1:1/v1', 'sk-gone'));
    expect(await settings.remove('gone')).toBe(true);
    expect(await settings.remove('gone')).toBe(false);
    expect(settings.list()).toEqual([]);
    expect(await secrets.get(secretAccountFor('gone'))).toBeNull();
  });

  it.each([
    [{ id: 'Upper', kind: 'openai', baseUrl: 'http://x/v1' }, /provider id/],
    [{ id: 'a/b', kind: 'openai', baseUrl: 'http://x/v1' }, /provider id/],
    [{ id: 'ok', kind: 'cohere', baseUrl: 'http://x/v1' }, /Unknown provider kind "cohere"/],
    [{ id: 'ok', kind: 'openai', baseUrl: 'ftp://x/v1' }, /only http and https/],
    [{ id: 'ok', kind: 'openai', baseUrl: 'nope' }, /Invalid base URL/],
    [{ id: 'ok', kind: 'openai', baseUrl: 'https://user:pass@x/v1' }, /credentials/],
  ])('rejects %o', (input, message) => {
    expect(() => validateNewProvider({ ...input, apiKey: null })).toThrow(ApiError);
    expect(() => validateNewProvider({ ...input, apiKey: null })).toThrow(message);
  });
});

describe('provider timeouts', () => {
  it('stores a provider’s own limits, keeps them across an update, and goes back to the defaults with {}', async () => {
    await settings.add({
      id: 'local',
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: null,
      timeouts: { stream_headers: 900, idle: 30 },
    });
    expect(settings.list()[0]!.timeouts).toEqual({ stream_headers: 900, idle: 30 });
    await settings.update('local', { baseUrl: 'http://127.0.0.1:11435/v1' });
    expect(settings.list()[0]!.timeouts).toEqual({ stream_headers: 900, idle: 30 });
    await settings.update('local', { timeouts: {} });
    expect(settings.list()[0]!.timeouts).toBeUndefined();
  });

  it('refuses limits that are not whole seconds from 1 to a day, naming the field', () => {
    const base = { id: 'x', kind: 'openai', baseUrl: 'http://127.0.0.1:1/v1', apiKey: null };
    for (const timeouts of [{ idle: 0 }, { idle: 1.5 }, { headers: 86_401 }, { stream_headers: -3 }]) {
      expect(() => validateNewProvider({ ...base, timeouts })).toThrow(ApiError);
    }
    expect(() => validateNewProvider({ ...base, timeouts: { idle: 0 } })).toThrow(
      'Timeout "idle" must be a whole number of seconds from 1 to 86400.',
    );
    expect(() => validateNewProvider({ ...base, timeouts: { nap: 3 } as never })).toThrow('Unknown timeout "nap"');
  });
});
