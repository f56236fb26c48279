// The PostgreSQL engine on a real throwaway server, one store at a time: every method of the Store interface, the
// snapshot read from memory after each write, and what the engine does with a bad URL or password.

import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { singleTarget, type ProviderInfo } from '../../../shared/api/index.js';
import { newChatMessage } from '../../../shared/bridge/chat-message.js';
import type { ChatMessage, Conversation } from '../../../shared/bridge/types.js';
import { withPostgresClient } from '../../../test/support/postgres.js';
import { usePostgresStores } from '../../../test/support/postgres-store.js';
import { usageRecord } from '../../../test/support/usage-record.js';
import { defaultKeyRules, type KeyRulesRow } from '../contract/keys.js';
import { StoreVersionError } from '../contract/schema-version.js';
import { openPostgresStore } from './postgres-store.js';
import { isPostgresRowRejection } from './row-rejection.js';

const stores = usePostgresStores();
const hash = Buffer.from('a'.repeat(64), 'hex');

async function freshStore() {
  return stores.open(await stores.database());
}

describe('PostgresStore: keys', () => {
  it('inserts, reads from the snapshot, renames, touches and deletes, keeping deleted names', async () => {
    const store = await freshStore();
    const second = { id: 'b', name: 'second', label: 'sk-…b', secretHash: hash, createdAt: 2000 };
    await store.insertKey(second);
    await store.insertKey({ id: 'a', name: 'first', label: 'sk-…a', secretHash: hash, createdAt: 1000 });
    await store.insertKey({ id: 'c', name: 'third', label: 'sk-…c', secretHash: hash, createdAt: 2000 });
    expect(store.getKey('b')).toEqual({ ...second, lastUsedAt: null });
    // Oldest first; a tie of time in the order of insertion, also after a rename reloads the row.
    expect(await store.renameKey('b', 'renamed')).toBe(true);
    expect(store.listKeys().map((key) => [key.id, key.name])).toEqual([
      ['a', 'first'],
      ['b', 'renamed'],
      ['c', 'third'],
    ]);
    expect(await store.renameKey('nope', 'x')).toBe(false);

    await store.touchKeys(new Map([['a', 5000]]));
    await store.touchKeys(new Map([['a', 4000]]));
    expect(store.getKey('a')?.lastUsedAt).toBe(5000);

    expect(await store.deleteKey('a')).toBe(true);
    expect(await store.deleteKey('a')).toBe(false);
    expect(store.getKey('a')).toBeUndefined();
    expect(await store.deletedKeyNames()).toEqual(new Map([['a', 'first']]));
  });

  it('keeps rules with the key, defaults without, and drops them with it', async () => {
    const store = await freshStore();
    const rules: KeyRulesRow = {
      ...defaultKeyRules,
      limitNanos: 5_000_000_000,
      limitReset: 'daily',
      allowedModels: ['up/m'],
      management: false,
      rpm: 4,
      allowedMcp: ['fs'],
    };
    await store.insertKey({ id: 'k', name: 'k', label: 'l', secretHash: hash, createdAt: 1 }, rules);
    await store.insertKey({ id: 'plain', name: 'p', label: 'l', secretHash: hash, createdAt: 2 });
    expect(store.getKeyRules('k')).toEqual(rules);
    expect(store.getKeyRules('plain')).toEqual(defaultKeyRules);
    expect(await store.setKeyRules('plain', { ...defaultKeyRules, disabled: true })).toBe(true);
    expect(await store.setKeyRules('missing', defaultKeyRules)).toBe(false);
    expect(store.listKeyRules()).toEqual(
      new Map([
        ['k', rules],
        ['plain', { ...defaultKeyRules, disabled: true }],
      ]),
    );
    await store.deleteKey('k');
    expect(store.listKeyRules().has('k')).toBe(false);
    expect(store.getKeyRules('k')).toEqual(defaultKeyRules);
  });

  it('moves changeVersion with every write of the snapshot', async () => {
    const store = await freshStore();
    const before = store.changeVersion({ fresh: true });
    await store.insertKey({ id: 'k', name: 'k', label: 'l', secretHash: hash, createdAt: 1 });
    expect(store.changeVersion({ fresh: true })).not.toBe(before);
  });
});

describe('PostgresStore: providers, prices and aliases', () => {
  it('upserts providers keeping created_at, lists oldest first and removes', async () => {
    const store = await freshStore();
    const provider: ProviderInfo = {
      id: 'up',
      kind: 'openai',
      base_url: 'http://localhost:1/v1',
      has_api_key: true,
      created_at: new Date(1000).toISOString(),
      api_key_tail: 'abcd',
      timeouts: { idle: 5 },
    };
    await store.upsertProvider(provider);
    await store.upsertProvider({ ...provider, base_url: 'http://other/v1', created_at: new Date(9000).toISOString() });
    expect(store.getProvider('up')).toEqual({ ...provider, base_url: 'http://other/v1' });
    await store.upsertProvider({
      ...provider,
      id: 'second',
      has_api_key: false,
      created_at: new Date(500).toISOString(),
    });
    expect(store.listProviders().map((p) => [p.id, p.api_key_tail])).toEqual([
      ['second', undefined],
      ['up', 'abcd'],
    ]);
    expect(await store.removeProvider('up')).toBe(true);
    expect(await store.removeProvider('up')).toBe(false);
    expect(store.getProvider('up')).toBeUndefined();
  });

  it('sets and removes price overrides, by model', async () => {
    const store = await freshStore();
    const price = { model: 'b', inputPico: 1, outputPico: 2, cacheReadPico: null, cacheWritePico: 3, updatedAt: 7 };
    await store.setPrice(price);
    await store.setPrice({ ...price, model: 'a' });
    await store.setPrice({ ...price, inputPico: 9 });
    expect(store.listPrices()).toEqual([
      { ...price, model: 'a' },
      { ...price, inputPico: 9 },
    ]);
    expect(await store.removePrice('a')).toBe(true);
    expect(await store.removePrice('a')).toBe(false);
    expect(store.listPrices().map((row) => row.model)).toEqual(['b']);
  });

  it('creates and repoints aliases, answering what they were', async () => {
    const store = await freshStore();
    expect(await store.setModelAlias('fast', 'up/m1', 1000)).toBeUndefined();
    expect(await store.setModelAlias('fast', 'up/m2', 2000)).toEqual({
      name: 'fast',
      target: 'up/m1',
      ...singleTarget('up/m1'),
      created_at: new Date(1000).toISOString(),
    });
    expect(store.listModelAliases()).toEqual([
      { name: 'fast', target: 'up/m2', ...singleTarget('up/m2'), created_at: new Date(1000).toISOString() },
    ]);
    expect(await store.removeModelAlias('fast')).toBe(true);
    expect(await store.removeModelAlias('fast')).toBe(false);
    expect(store.listModelAliases()).toEqual([]);
  });
});

describe('PostgresStore: credits, usage and the ledger', () => {
  it('changes credits with a ledger row each, and counts exactly the inserted rows’ cost', async () => {
    const store = await freshStore();
    expect(store.getCreditAccount()).toEqual({ limited: false, grantedNanos: 0, usedNanos: 0 });
    expect(await store.changeCredits({ action: 'set', balanceNanos: 10_000_000_000, at: 1 })).toEqual({
      limited: true,
      grantedNanos: 10_000_000_000,
      usedNanos: 0,
    });
    const day = 20_000;
    const at = day * 86_400_000 + 5;
    await store.insertUsage([
      usageRecord({ id: 'g1', key_id: 'k', cost: 0.25, created_at: at }),
      usageRecord({ id: 'g2', key_id: 'k', cost: 0.5, created_at: at + 86_400_000 }),
      usageRecord({ id: 'g3', key_id: 'other', cost: 0, unpriced: true, created_at: at }),
    ]);
    // A batch retried after an ambiguous commit adds nothing twice.
    await store.insertUsage([usageRecord({ id: 'g1', key_id: 'k', cost: 0.25, created_at: at })]);
    expect(store.getCreditAccount()).toEqual({ limited: true, grantedNanos: 10_000_000_000, usedNanos: 750_000_000 });
    expect(store.keySpendSince('k', day)).toBe(750_000_000);
    expect(store.keySpendSince('k', day + 1)).toBe(500_000_000);
    expect(await store.changeCredits({ action: 'add', amountNanos: 1_000_000_000, at: 2 })).toMatchObject({
      grantedNanos: 11_000_000_000,
    });
    await store.changeCredits({ action: 'unset', at: 3 });
    expect(await store.listCreditLedger()).toEqual([
      { id: 1, createdAt: 1, action: 'set', amountNanos: 10_000_000_000, balanceNanos: 10_000_000_000 },
      { id: 2, createdAt: 2, action: 'add', amountNanos: 1_000_000_000, balanceNanos: 10_250_000_000 },
      { id: 3, createdAt: 3, action: 'unset', amountNanos: 0, balanceNanos: null },
    ]);
  });

  it('rejects a batch holding a row that can never be written, as a row rejection', async () => {
    const store = await freshStore();
    const bad = { ...usageRecord({ id: 'bad', key_id: 'k', cost: 1 }), model: undefined as unknown as string };
    const failure = await store.insertUsage([usageRecord({ id: 'ok', key_id: 'k', cost: 1 }), bad]).catch((e) => e);
    expect(isPostgresRowRejection(failure)).toBe(true);
    // What the usage log asks before it writes the batch's rows one by one.
    expect(store.isRowRejection(failure)).toBe(true);
    expect(isPostgresRowRejection(new Error('connection terminated'))).toBe(false);
    // All or nothing: the good row and its cost were not written either.
    expect(await store.getUsage('ok')).toBeUndefined();
    expect(store.getCreditAccount().usedNanos).toBe(0);
  });

  it('reads usage back as it was recorded, newest first, and summarises it', async () => {
    const store = await freshStore();
    const rows = [
      usageRecord({ id: 'a', key_id: 'k1', created_at: 1000, cost: 0.001, model: 'up/x', app_title: 'App' }),
      usageRecord({ id: 'b', key_id: 'k2', created_at: 2000, cost: 0.002, status: 502, streamed: true }),
      usageRecord({ id: 'c', key_id: 'k1', created_at: 2000, finish_reason: 'cancelled', estimated: true }),
      usageRecord({ id: 'd', key_id: 'k1', created_at: 86_400_000, unpriced: true, cost: 0, app_referer: 'ref' }),
    ];
    await store.insertUsage(rows);
    expect(await store.getUsage('c')).toEqual(rows[2]);
    expect(await store.getUsage('a')).toEqual(rows[0]);
    expect(await store.getUsage('none')).toBeUndefined();
    expect((await store.listUsage()).map((row) => row.id)).toEqual(['d', 'c', 'b', 'a']);
    expect((await store.listUsage({ sinceMs: 2000, limit: 2 })).map((row) => row.id)).toEqual(['d', 'c']);
    expect(await store.usageSummary({ by: 'day' })).toEqual([
      expect.objectContaining({ group: '1970-01-01', requests: 3, errors: 1, cancelled: 1, costNanos: 3_000_000 }),
      expect.objectContaining({ group: '1970-01-02', requests: 1, unpricedRequests: 1 }),
    ]);
    expect((await store.usageSummary({ by: 'app', untilMs: 86_400_000 })).map((group) => group.group)).toEqual([
      '',
      'App',
    ]);
  });
});

describe('PostgresStore: chat and MCP calls', () => {
  const conversation: Conversation = {
    id: 'c1',
    title: 'Trip to Zürich',
    model: null,
    systemPrompt: '',
    temperature: null,
    createdAt: 1,
    updatedAt: 1,
  };
  const message = (id: string, text: string): ChatMessage =>
    newChatMessage({
      id,
      conversationId: 'c1',
      role: 'user',
      status: 'complete',
      createdAt: 5,
      content: [{ type: 'text', text }],
    });

  it('stores conversations and messages, in the order written, and searches them', async () => {
    const store = await freshStore();
    await store.chat.insertConversation(conversation);
    await store.chat.insertConversation({ ...conversation, id: 'c2', title: 'Other' });
    await store.chat.insertMessage(message('m2', 'Hello 100%_ sure'));
    await store.chat.insertMessage(message('m1', 'the reply'));
    expect((await store.chat.listMessages('c1')).map((m) => m.id)).toEqual(['m2', 'm1']);
    expect(await store.chat.getMessage('m2')).toEqual(message('m2', 'Hello 100%_ sure'));
    expect((await store.chat.listConversations()).map((c) => c.id)).toEqual(['c2', 'c1']);
    expect((await store.chat.listConversations({ query: 'HELLO 100%_' })).map((c) => c.id)).toEqual(['c1']);
    expect((await store.chat.listConversations({ query: 'zürich' })).map((c) => c.id)).toEqual(['c1']);
    // As SQLite's LIKE: only ASCII letters match in any case.
    expect(await store.chat.listConversations({ query: 'ZÜRICH' })).toEqual([]);
    expect(await store.chat.listConversations({ query: '0%x' })).toEqual([]);

    expect(await store.chat.updateConversation('c1', { title: 'New', temperature: 0.5 }, 9)).toMatchObject({
      ...conversation,
      title: 'New',
      temperature: 0.5,
      updatedAt: 9,
    });
    expect(await store.chat.updateConversation('none', { title: 'x' }, 9)).toBeUndefined();
    expect(await store.chat.updateMessage('m1', { status: 'error', error: 'boom' })).toMatchObject({
      status: 'error',
      error: 'boom',
      content: [{ type: 'text', text: 'the reply' }],
    });
    expect(await store.chat.updateMessage('none', { status: 'error' })).toBeUndefined();
    expect(await store.chat.deleteMessages(['m1', 'none'])).toBe(1);
    expect(await store.chat.deleteConversation('c1')).toBe(true);
    expect(await store.chat.getMessage('m2')).toBeUndefined();
    expect(await store.chat.getConversation('c1')).toBeUndefined();
  });

  it('records MCP hub calls, newest first', async () => {
    const store = await freshStore();
    const call = {
      createdAt: 1,
      keyId: 'k',
      keyName: 'n',
      client: null,
      server: 'fs',
      tool: 'read',
      durationMs: 2.6,
      error: null,
    };
    await store.mcpCalls.insert(call);
    await store.mcpCalls.insert({ ...call, tool: 'write' });
    expect(await store.mcpCalls.recent(1)).toEqual([{ ...call, tool: 'write', durationMs: 3 }]);
    expect(await store.mcpCalls.recent(-1)).toHaveLength(2);
  });
});

describe('PostgresStore: opening and health', () => {
  it('is ready when reachable, migrated and listening', async () => {
    const store = await freshStore();
    expect(await store.readiness()).toEqual({
      ready: true,
      checks: { database: 'reachable', migrations: 'current', listener: 'listening' },
    });
    expect(store.engine).toBe('postgres');
  });

  it('keeps only the last thousand change numbers, and forgets instances gone for an hour', async () => {
    const url = await stores.database();
    const store = await stores.open(url);
    await withPostgresClient(url, async (admin) => {
      await admin.query(
        "INSERT INTO instances (id, applied_seq, lease_until) VALUES ('dead', 0, 0), ('recent', 0, $1)",
        [Date.now() - 60_000],
      );
      for (let index = 0; index < 2_000; index++) await store.setModelAlias('a', `up/m${index}`, 1);
      const changes = await admin.query('SELECT count(*)::int AS n, max(seq)::int AS newest FROM changes');
      expect(changes.rows[0]).toEqual({ n: 1_000, newest: 2_000 });
      await stores.open(url, { instance: true });
      const instances = await admin.query('SELECT id FROM instances ORDER BY id');
      expect(instances.rows.map((row) => row.id)).not.toContain('dead');
      expect(instances.rows.map((row) => row.id)).toContain('recent');
    });
  });

  it('reads bigint as numbers through its own type table, leaving pg’s global one alone', async () => {
    const store = await freshStore();
    await store.insertUsage([usageRecord({ id: 'g', key_id: 'k', cost: 0.5, prompt_tokens: 2 ** 40 })]);
    expect((await store.getUsage('g'))?.prompt_tokens).toBe(2 ** 40);
    expect(pg.types.getTypeParser(20, 'text')('12')).toBe('12');
  });

  it('refuses a database of a newer Switchyard with StoreVersionError, as the SQLite engine does', async () => {
    const url = await stores.database();
    const store = await stores.open(url);
    await withPostgresClient(url, async (admin) => {
      await admin.query("INSERT INTO schema_migrations (version, name) VALUES (999, 'from the future')");
    });
    await store.close();
    await expect(openPostgresStore(url)).rejects.toBeInstanceOf(StoreVersionError);
  });

  it('never shows the password in its errors', async () => {
    const url = new URL(await stores.database());
    url.password = 'not-the-password-Xy9';
    const failure = await openPostgresStore(url.toString()).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain('could not open the PostgreSQL database');
    expect((failure as Error).message).toContain(':***@127.0.0.1');
    expect((failure as Error).message).not.toContain('not-the-password-Xy9');
  });
});
