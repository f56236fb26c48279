import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type KeyRules } from '../../shared/api/index.js';
import { databaseFileName, openStore, type Store } from '../store/index.js';
import { ApiKeys, type KeyStore } from './index.js';
import { useStoreEachTest } from '../../test/support/store-each-test.js';

const secretFormat = /^sk-sy-v1-([0-9a-f]{16})-([A-Za-z0-9_-]{43})$/;

const temp = useStoreEachTest();
let store: Store;
let keys: ApiKeys;
const closers: (() => void)[] = [];

beforeEach(() => {
  store = temp.store;
  keys = new ApiKeys(store);
  closers.push(() => keys.close());
});

afterEach(() => {
  vi.useRealTimers();
  for (const close of closers.splice(0)) close();
});

function openSecond(): { store: Store; keys: ApiKeys } {
  const secondStore = temp.openAnother();
  const secondKeys = new ApiKeys(secondStore);
  closers.unshift(() => secondKeys.close());
  return { store: secondStore, keys: secondKeys };
}

function randomPartOf(secret: string): string {
  return secretFormat.exec(secret)![2]!;
}

/** A KeyStore that counts getKey calls and can be made to fail touchKeys. */
function instrumented(target: Store) {
  const state = { getKeyCalls: 0, failTouches: 0 };
  const keyStore: KeyStore = {
    insertKey: (row, rules) => target.insertKey(row, rules),
    getKey: (id) => (state.getKeyCalls++, target.getKey(id)),
    listKeys: () => target.listKeys(),
    deleteKey: (id) => target.deleteKey(id),
    deletedKeyNames: () => target.deletedKeyNames(),
    renameKey: (id, name) => target.renameKey(id, name),
    touchKeys: async (lastUsed) => {
      if (state.failTouches > 0) {
        state.failTouches--;
        throw new Error('database is locked');
      }
      await target.touchKeys(lastUsed);
    },
    changeVersion: () => target.changeVersion(),
    getKeyRules: (id) => target.getKeyRules(id),
    listKeyRules: () => target.listKeyRules(),
    setKeyRules: (id, rules) => target.setKeyRules(id, rules),
  };
  return { keyStore, state };
}

/** What a new key may do unless told otherwise: everything but listing and deleting other keys. */
const defaultRules: KeyRules = {
  limit: null,
  limit_reset: 'never',
  allowed_models: null,
  allowed_providers: null,
  management: false,
  expires_at: null,
  disabled: false,
  requests_per_minute: null,
  tokens_per_minute: null,
  allowed_mcp: null,
  metrics: false,
};

describe('create', () => {
  it('returns the secret in the sk-sy-v1-<id>-<random> format, once, with its info', async () => {
    const before = Date.now();
    const created = await keys.create('  Laptop  ');
    const match = secretFormat.exec(created.key);
    expect(match).not.toBeNull();
    const randomPart = match![2]!;
    expect(Buffer.from(randomPart, 'base64url')).toHaveLength(32);
    expect(created).toEqual({
      id: match![1],
      name: 'Laptop',
      label: `sk-sy-v1-…${randomPart.slice(-4)}`,
      created_at: expect.any(String),
      last_used_at: null,
      ...defaultRules,
      key: created.key,
    });
    expect(Date.parse(created.created_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(created.created_at)).toBeLessThanOrEqual(Date.now());
    const { key: _secret, ...info } = created;
    expect(keys.get(created.id)).toEqual(info);
  });

  it('makes a different id and secret every time', async () => {
    const created = await Promise.all(Array.from({ length: 20 }, () => keys.create('k')));
    expect(new Set(created.map((key) => key.id)).size).toBe(20);
    expect(new Set(created.map((key) => randomPartOf(key.key))).size).toBe(20);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['too long', 'a'.repeat(101)],
    ['multi-line', 'a\nb'],
    ['not a string', 42 as unknown as string],
  ])('rejects a %s name with ApiError 400 and stores nothing', async (_case, name) => {
    let thrown: unknown;
    try {
      await keys.create(name);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).status).toBe(400);
    expect(keys.list()).toEqual([]);
  });

  it('accepts names of up to 100 characters, counting an emoji as one', async () => {
    expect((await keys.create('a'.repeat(100))).name).toHaveLength(100);
    expect((await keys.create('😀'.repeat(100))).name).toBe('😀'.repeat(100));
  });
});

describe('storage', () => {
  it('keeps only sha256 of the secret: no column of any row, nor the files, holds the secret', async () => {
    const created = await keys.create('k');
    keys.authenticate(created.key);
    await keys.flushLastUsed();
    const randomPart = randomPartOf(created.key);
    const needles = [created.key, randomPart].map((needle) => Buffer.from(needle));

    const db = new Database(path.join(temp.dataDir, databaseFileName), { readonly: true });
    closers.push(() => db.close());
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    expect(tables).toEqual(expect.arrayContaining(['api_keys', 'providers', 'usage_log']));
    let valuesScanned = 0;
    for (const table of tables) {
      for (const row of db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]) {
        for (const value of Object.values(row)) {
          valuesScanned++;
          const bytes = Buffer.isBuffer(value) ? value : Buffer.from(String(value));
          for (const needle of needles) expect(bytes.includes(needle)).toBe(false);
        }
      }
    }
    expect(valuesScanned).toBeGreaterThanOrEqual(6);
    // The WAL and the main file too: a secret written and then overwritten could survive in old pages.
    for (const file of fs.readdirSync(temp.dataDir)) {
      const bytes = fs.readFileSync(path.join(temp.dataDir, file));
      for (const needle of needles) expect(bytes.includes(needle), file).toBe(false);
    }
    const storedHash = db.prepare('SELECT secret_hash FROM api_keys WHERE id = ?').pluck().get(created.id);
    expect(storedHash).toEqual(crypto.createHash('sha256').update(created.key).digest());
  });
});

describe('authenticate', () => {
  it('accepts the secret and returns the key’s info', async () => {
    const created = await keys.create('k');
    const info = keys.authenticate(created.key);
    expect(info).toMatchObject({ id: created.id, name: 'k', label: created.label });
    expect(info).not.toHaveProperty('key');
  });

  it('rejects a wrong secret carrying the right id', async () => {
    const created = await keys.create('k');
    const wrong = `sk-sy-v1-${created.id}-${crypto.randomBytes(32).toString('base64url')}`;
    expect(wrong).toMatch(secretFormat);
    expect(keys.authenticate(wrong)).toBeNull();
    // Also once the row is cached by a successful authentication.
    expect(keys.authenticate(created.key)).not.toBeNull();
    expect(keys.authenticate(wrong)).toBeNull();
  });

  it('rejects malformed and foreign strings without throwing', async () => {
    const created = await keys.create('k');
    const malformed = [
      '',
      'sk-sy-v1-',
      `${created.key}x`,
      created.key.slice(0, -1),
      ` ${created.key}`,
      `Bearer ${created.key}`,
      created.key.replace('sk-sy-v1-', 'sk-sy-v2-'),
      created.key.replace(created.id, created.id.toUpperCase()),
      `sk-sy-v1-${'0'.repeat(16)}-${randomPartOf(created.key)}`,
      undefined,
      null,
      12,
    ];
    for (const candidate of malformed) {
      expect(keys.authenticate(candidate as string), String(candidate)).toBeNull();
    }
  });

  it('reads a key from the database once, then serves it from memory', async () => {
    const { keyStore, state } = instrumented(store);
    const cached = new ApiKeys(keyStore);
    const created = await keys.create('k');
    for (let index = 0; index < 5; index++) expect(cached.authenticate(created.key)).not.toBeNull();
    expect(state.getKeyCalls).toBe(1);
  });

  it('rejects a deleted key at once', async () => {
    const created = await keys.create('k');
    expect(keys.authenticate(created.key)).not.toBeNull();
    expect(await keys.delete(created.id)).toBe(true);
    expect(keys.authenticate(created.key)).toBeNull();
    expect(await keys.delete(created.id)).toBe(false);
    expect(keys.get(created.id)).toBeUndefined();
  });

  it('rejects at the very next call a key deleted through another Store on the same file (another process)', async () => {
    const other = openSecond();
    const created = await keys.create('k');
    expect(keys.authenticate(created.key)).not.toBeNull();
    expect(await other.keys.delete(created.id)).toBe(true);
    expect(keys.authenticate(created.key)).toBeNull();
  });

  it('rejects at the very next call a key deleted by another process, also when the Store reads data_version once per turn', async () => {
    const gatewayStore = openStore(temp.dataDir, { dataVersionReads: 'once-per-turn' });
    const gatewayKeys = new ApiKeys(gatewayStore);
    closers.unshift(
      () => gatewayKeys.close(),
      () => gatewayStore.close(),
    );
    const created = await keys.create('k');
    expect(gatewayKeys.authenticate(created.key)).not.toBeNull();
    expect(gatewayKeys.rulesOf(created.id)).toBeDefined(); // the rest of the request: served from the cache
    expect(await keys.delete(created.id)).toBe(true);
    expect(gatewayKeys.authenticate(created.key)).toBeNull();
  });

  it('shows at the very next call the name and rules changed here or by another process, and refuses a disabled key', async () => {
    const other = openSecond();
    const created = await keys.create('k', { allowed_models: ['fake/a'] });
    expect(keys.authenticate(created.key)).toMatchObject({ name: 'k', allowed_models: ['fake/a'], limit: null });
    await keys.update(created.id, { limit: 5 });
    expect(keys.authenticate(created.key)).toMatchObject({ name: 'k', allowed_models: ['fake/a'], limit: 5 });
    await other.keys.update(created.id, { allowed_models: null, expires_at: '2999-01-01T00:00:00.000Z' }, 'renamed');
    expect(keys.authenticate(created.key)).toMatchObject({
      name: 'renamed',
      allowed_models: null,
      limit: 5,
      expires_at: '2999-01-01T00:00:00.000Z',
    });
    await other.keys.update(created.id, { disabled: true });
    expect(() => keys.authenticate(created.key)).toThrow('This API key is disabled.');
  });

  it('accepts at once a key created through another Store on the same file', async () => {
    const other = openSecond();
    const created = await other.keys.create('from the CLI');
    expect(keys.authenticate(created.key)?.name).toBe('from the CLI');
  });
});

describe('list', () => {
  it('lists keys oldest first, with info fields only and never a secret', async () => {
    const created = [await keys.create('one'), await keys.create('two')];
    const listed = keys.list();
    expect(listed.map((key) => key.id)).toEqual(created.map((key) => key.id));
    for (const key of listed)
      expect(Object.keys(key).sort()).toEqual(
        ['created_at', 'id', 'label', 'last_used_at', 'name', ...Object.keys(defaultRules)].sort(),
      );
    const text = JSON.stringify(listed);
    for (const { key } of created) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(randomPartOf(key));
    }
  });
});

describe('names', () => {
  it('names every key by id, a deleted one as "name (deleted)" for the usage it left behind', async () => {
    const kept = await keys.create('kept');
    const gone = await keys.create('reports');
    const alsoGone = await keys.create('reports');
    await keys.delete(gone.id);
    await keys.delete(alsoGone.id);
    expect(await keys.namesById()).toEqual(
      new Map([
        [kept.id, 'kept'],
        [gone.id, 'reports (deleted)'],
        [alsoGone.id, 'reports (deleted)'],
      ]),
    );
    expect(keys.list().map((key) => key.id)).toEqual([kept.id]);
  });
});

describe('last used', () => {
  it('is kept in memory per request and written by flushLastUsed', async () => {
    const created = await keys.create('k');
    const before = Date.now();
    keys.authenticate(created.key);
    const after = Date.now();
    expect(store.getKey(created.id)?.lastUsedAt).toBeNull();
    const shown = Date.parse(keys.list()[0]!.last_used_at!);
    expect(shown).toBeGreaterThanOrEqual(before);

    await keys.flushLastUsed();
    const written = store.getKey(created.id)?.lastUsedAt;
    expect(written).toBeGreaterThanOrEqual(before);
    expect(written).toBeLessThanOrEqual(after);
    expect(openSecond().keys.get(created.id)?.last_used_at).toBe(new Date(written!).toISOString());
  });

  it('is shown by each authentication as ISO 8601 to the millisecond', async () => {
    const created = await keys.create('k');
    vi.useFakeTimers({ toFake: ['Date'] });
    const times = [
      '2026-01-02T03:04:05.007Z',
      '2026-01-02T03:04:05.070Z',
      '2026-01-02T03:04:06.070Z',
      '2027-12-31T23:59:59.999Z',
    ];
    for (const time of times) {
      vi.setSystemTime(new Date(time));
      expect(keys.authenticate(created.key)?.last_used_at).toBe(time);
    }
  });

  it('is written by start()’s timer, and by close(), which also stops the timer', async () => {
    vi.useFakeTimers();
    const timed = new ApiKeys(store, { flushIntervalMs: 10 });
    closers.unshift(() => timed.close());
    const first = await timed.create('first');
    const second = await timed.create('second');
    timed.start();
    timed.authenticate(first.key);
    vi.advanceTimersByTime(9);
    expect(store.getKey(first.id)?.lastUsedAt).toBeNull();
    vi.advanceTimersByTime(1);
    expect(store.getKey(first.id)?.lastUsedAt).not.toBeNull();

    await timed.close();
    timed.authenticate(second.key);
    vi.advanceTimersByTime(100);
    expect(store.getKey(second.id)?.lastUsedAt).toBeNull();
    await timed.close();
    expect(store.getKey(second.id)?.lastUsedAt).not.toBeNull();
  });

  it('keeps the times when a timed write fails, reports it, and writes them next time', async () => {
    vi.useFakeTimers();
    const { keyStore, state } = instrumented(store);
    const errors: unknown[] = [];
    const failing = new ApiKeys(keyStore, { flushIntervalMs: 10, onError: (error) => errors.push(error) });
    closers.unshift(() => failing.close());
    const created = await failing.create('k');
    state.failTouches = 1;
    failing.start();
    failing.authenticate(created.key);
    await vi.advanceTimersByTimeAsync(10);
    expect(errors).toHaveLength(1);
    expect(store.getKey(created.id)?.lastUsedAt).toBeNull();
    await vi.advanceTimersByTimeAsync(10);
    expect(store.getKey(created.id)?.lastUsedAt).not.toBeNull();
  });
});
