import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { singleTarget, type ProviderInfo, type UsageRecord } from '../../../shared/api/index.js';
import { openStore, type Store } from '../index.js';

let dataDir: string;
let store: Store;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-'));
  store = openStore(dataDir);
});

afterEach(async () => {
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function usageRow(id: string, createdAt: number, overrides: Partial<UsageRecord> = {}): UsageRecord {
  return {
    id,
    created_at: createdAt,
    key_id: 'key1',
    app_title: 'My App',
    app_referer: null,
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    streamed: true,
    status: 200,
    finish_reason: 'stop',
    prompt_tokens: 10,
    completion_tokens: 20,
    cached_tokens: 3,
    reasoning_tokens: 4,
    cost: 0.0012,
    latency_ms: 850,
    ttft_ms: 120,
    error: null,
    unpriced: false,
    ...overrides,
  };
}

describe('keys', () => {
  const hash = Buffer.from('a'.repeat(64), 'hex');

  it('inserts, gets, lists oldest first and deletes', async () => {
    await store.insertKey({ id: 'b', name: 'second', label: 'sk-…b', secretHash: hash, createdAt: 2000 });
    await store.insertKey({ id: 'a', name: 'first', label: 'sk-…a', secretHash: hash, createdAt: 1000 });
    expect(store.getKey('b')).toEqual({
      id: 'b',
      name: 'second',
      label: 'sk-…b',
      secretHash: hash,
      createdAt: 2000,
      lastUsedAt: null,
    });
    expect(store.getKey('b')?.secretHash).toBeInstanceOf(Buffer);
    expect(store.listKeys().map((key) => key.id)).toEqual(['a', 'b']);
    expect(await store.deleteKey('a')).toBe(true);
    expect(await store.deleteKey('a')).toBe(false);
    expect(store.getKey('a')).toBeUndefined();
    expect(store.listKeys().map((key) => key.id)).toEqual(['b']);
  });

  it('refuses a second key with the same id', async () => {
    await store.insertKey({ id: 'a', name: 'one', label: 'l', secretHash: hash, createdAt: 1 });
    await expect(
      store.insertKey({ id: 'a', name: 'two', label: 'l', secretHash: hash, createdAt: 2 }),
    ).rejects.toThrow();
    expect(store.getKey('a')?.name).toBe('one');
  });

  it('touchKeys moves last_used_at forward only and ignores unknown ids', async () => {
    await store.insertKey({ id: 'a', name: 'a', label: 'l', secretHash: hash, createdAt: 1 });
    await store.insertKey({ id: 'b', name: 'b', label: 'l', secretHash: hash, createdAt: 1 });
    await store.touchKeys(
      new Map([
        ['a', 500],
        ['b', 700],
        ['gone', 900],
      ]),
    );
    expect(store.getKey('a')?.lastUsedAt).toBe(500);
    expect(store.getKey('b')?.lastUsedAt).toBe(700);
    await store.touchKeys(
      new Map([
        ['a', 400],
        ['b', 800],
      ]),
    );
    expect(store.getKey('a')?.lastUsedAt).toBe(500);
    expect(store.getKey('b')?.lastUsedAt).toBe(800);
    expect(store.getKey('gone')).toBeUndefined();
  });
});

describe('providers', () => {
  const openai: ProviderInfo = {
    id: 'openai',
    kind: 'openai',
    base_url: 'https://api.openai.com/v1',
    has_api_key: true,
    created_at: '2025-01-02T03:04:05.678Z',
  };

  it('round-trips ProviderInfo, converting ISO times and booleans at the boundary', async () => {
    await store.upsertProvider(openai);
    await store.upsertProvider({ ...openai, id: 'local', has_api_key: false, created_at: '2024-12-31T00:00:00.000Z' });
    expect(store.getProvider('openai')).toEqual(openai);
    expect(store.listProviders().map((provider) => [provider.id, provider.has_api_key])).toEqual([
      ['local', false],
      ['openai', true],
    ]);
  });

  it('updates on upsert but keeps the original created_at', async () => {
    await store.upsertProvider(openai);
    await store.upsertProvider({
      ...openai,
      kind: 'anthropic',
      base_url: 'https://example.test',
      has_api_key: false,
      created_at: '2030-01-01T00:00:00.000Z',
    });
    expect(store.getProvider('openai')).toEqual({
      ...openai,
      kind: 'anthropic',
      base_url: 'https://example.test',
      has_api_key: false,
    });
    expect(store.listProviders()).toHaveLength(1);
  });

  it('rejects an invalid created_at and removes providers', async () => {
    await expect(store.upsertProvider({ ...openai, created_at: 'yesterday' })).rejects.toThrow(/invalid created_at/);
    await store.upsertProvider(openai);
    expect(await store.removeProvider('openai')).toBe(true);
    expect(await store.removeProvider('openai')).toBe(false);
    expect(store.getProvider('openai')).toBeUndefined();
  });
});

describe('model aliases', () => {
  it('creates, lists by name, repoints keeping created_at, and removes', async () => {
    expect(await store.setModelAlias('gpt-5-codex', 'openai/gpt-5', 2000)).toBeUndefined();
    expect(await store.setModelAlias('claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5', 1000)).toBeUndefined();
    expect(store.listModelAliases()).toEqual([
      {
        name: 'claude-sonnet-4-5',
        target: 'anthropic/claude-sonnet-4-5',
        ...singleTarget('anthropic/claude-sonnet-4-5'),
        created_at: '1970-01-01T00:00:01.000Z',
      },
      {
        name: 'gpt-5-codex',
        target: 'openai/gpt-5',
        ...singleTarget('openai/gpt-5'),
        created_at: '1970-01-01T00:00:02.000Z',
      },
    ]);
    expect(await store.setModelAlias('gpt-5-codex', 'local/qwen3-coder', 3000)).toEqual({
      name: 'gpt-5-codex',
      target: 'openai/gpt-5',
      ...singleTarget('openai/gpt-5'),
      created_at: '1970-01-01T00:00:02.000Z',
    });
    expect(store.listModelAliases()[1]).toEqual({
      name: 'gpt-5-codex',
      target: 'local/qwen3-coder',
      ...singleTarget('local/qwen3-coder'),
      created_at: '1970-01-01T00:00:02.000Z',
    });
    expect(await store.removeModelAlias('gpt-5-codex')).toBe(true);
    expect(await store.removeModelAlias('gpt-5-codex')).toBe(false);
    expect(store.listModelAliases().map((alias) => alias.name)).toEqual(['claude-sonnet-4-5']);
  });

  it('refuses a target that is not <provider>/<model>', async () => {
    await expect(store.setModelAlias('a', 'no-provider', 1)).rejects.toThrow(/CHECK constraint/);
    await expect(store.setModelAlias('a', '/model', 1)).rejects.toThrow(/CHECK constraint/);
    expect(store.listModelAliases()).toEqual([]);
  });
});

describe('usage', () => {
  it('round-trips every field of a UsageRecord', async () => {
    const full = usageRow('gen-1', 1000);
    const sparse = usageRow('gen-2', 2000, {
      app_title: null,
      provider: null,
      streamed: false,
      finish_reason: null,
      cost: null,
      ttft_ms: null,
      status: 502,
      error: 'upstream failed',
    });
    const estimated = usageRow('gen-4', 4000, {
      finish_reason: 'cancelled',
      estimated: true,
      dropped_tools: ['web_search', 'file_search'],
    });
    await store.insertUsage([full, sparse, estimated]);
    expect(await store.getUsage('gen-1')).toEqual(full);
    expect(await store.getUsage('gen-2')).toEqual(sparse);
    expect(await store.getUsage('gen-4')).toEqual(estimated);
    expect(await store.getUsage('gen-3')).toBeUndefined();
  });

  it('lists newest first, filtered by sinceMs and limited', async () => {
    await store.insertUsage([usageRow('a', 1000), usageRow('c', 3000), usageRow('b', 2000), usageRow('d', 4000)]);
    expect((await store.listUsage()).map((row) => row.id)).toEqual(['d', 'c', 'b', 'a']);
    expect((await store.listUsage({ sinceMs: 2000 })).map((row) => row.id)).toEqual(['d', 'c', 'b']);
    expect((await store.listUsage({ limit: 2 })).map((row) => row.id)).toEqual(['d', 'c']);
    expect((await store.listUsage({ sinceMs: 2500, limit: 1 })).map((row) => row.id)).toEqual(['d']);
    expect(await store.listUsage({ limit: 0 })).toEqual([]);
  });

  it('ignores a row whose id is already stored', async () => {
    await store.insertUsage([usageRow('gen-1', 1000)]);
    await store.insertUsage([usageRow('gen-1', 1000, { model: 'other/model' }), usageRow('gen-2', 2000)]);
    expect((await store.getUsage('gen-1'))?.model).toBe('openai/gpt-4o-mini');
    expect(await store.listUsage()).toHaveLength(2);
  });

  it('rounds fractional integers instead of failing the batch', async () => {
    await store.insertUsage([usageRow('gen-1', 1000.4, { latency_ms: 12.7, ttft_ms: 3.2 })]);
    expect(await store.getUsage('gen-1')).toMatchObject({ created_at: 1000, latency_ms: 13, ttft_ms: 3 });
  });

  it('writes a batch in one transaction: a rejected row rolls back the whole batch', async () => {
    const broken = { ...usageRow('gen-2', 2000), model: undefined } as unknown as UsageRecord;
    let thrown: unknown;
    try {
      await store.insertUsage([usageRow('gen-1', 1000), broken]);
    } catch (error) {
      thrown = error;
    }
    expect(store.isRowRejection(thrown)).toBe(true);
    expect(await store.listUsage()).toEqual([]);
  });
});

describe('store.isRowRejection', () => {
  it('is false for errors that say nothing about the row', async () => {
    await store.close();
    let thrown: unknown;
    try {
      await store.insertUsage([usageRow('gen-1', 1000)]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeDefined();
    expect(store.isRowRejection(thrown)).toBe(false);
    expect(store.isRowRejection(new Error('SQLITE_CONSTRAINT'))).toBe(false);
  });
});

describe('close', () => {
  it('can be called twice', async () => {
    await store.close();
    await expect(store.close()).resolves.toBeUndefined();
  });
});
