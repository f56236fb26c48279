// Both engines behind the Store interface answer alike (decision 017): each scenario runs the same operations on a
// fresh SQLite file and on a fresh PostgreSQL database (a throwaway cluster, test/support/postgres.ts) and compares
// every answer. The data is chosen where the dialects differ: ties of time, text order (byte order on SQLite,
// whatever the collation on PostgreSQL), case folding outside ASCII, LIKE's wildcards, fractions, nulls, day
// boundaries and negative limits. The PostgreSQL database compares text linguistically (ICU), not byte by byte.

import { describe, expect, it } from 'vitest';
import type { ProviderInfo, UsageRecord } from '../../shared/api/index.js';
import { newChatMessage } from '../../shared/bridge/chat-message.js';
import type { ChatMessage, Conversation } from '../../shared/bridge/types.js';
import { useStoreEngines } from '../../test/support/postgres-store.js';
import { usageRecord } from '../../test/support/usage-record.js';
import { defaultKeyRules, type Store } from './index.js';

const engines = useStoreEngines('switchyard-engines-', { linguistic: true });

/** Runs the scenario on a fresh store of each engine; answers [sqlite's, postgres's]. */
async function onBoth<T>(scenario: (store: Store) => Promise<T>): Promise<[T, T]> {
  const [lite, server] = await Promise.all(engines.map(async (engine) => scenario(await engine.open())));
  return [lite!, server!];
}

/** Whether the promise rejected: the engines' messages differ, whether they refuse must not. */
async function refuses(promise: Promise<unknown>): Promise<boolean> {
  return promise.then(
    () => false,
    () => true,
  );
}

const hash = Buffer.alloc(32, 7);

describe.each(engines)('the $name engine', ({ open }) => {
  it('starts empty, with the defaults', async () => {
    const store = await open();
    expect(store.listKeys()).toEqual([]);
    expect(store.getKeyRules('none')).toEqual(defaultKeyRules);
    expect(store.getCreditAccount()).toEqual({ limited: false, grantedNanos: 0, usedNanos: 0 });
    expect(await store.listUsage()).toEqual([]);
    expect(await store.readiness()).toMatchObject({ ready: true, checks: { database: 'reachable' } });
  });
});

describe('both engines answer alike', () => {
  it('for keys, their rules, renames, deletions and last-used times', async () => {
    const [lite, server] = await onBoth(async (store) => {
      for (const [id, createdAt] of [
        ['b', 5],
        ['a', 5],
        ['C', 1],
        ['é', 5],
      ] as const) {
        await store.insertKey({ id, name: `name ${id}`, label: `sk-…${id}`, secretHash: hash, createdAt });
      }
      await store.insertKey(
        { id: 'ruled', name: 'r', label: 'l', secretHash: hash, createdAt: 9 },
        {
          ...defaultKeyRules,
          allowedModels: ['up/ü', 'up/"quoted"'],
          allowedProviders: [],
          management: false,
          rpm: 3,
          limitNanos: 0,
          limitReset: 'monthly',
        },
      );
      const duplicate = await refuses(
        store.insertKey({ id: 'a', name: 'again', label: 'l', secretHash: hash, createdAt: 1 }),
      );
      const renamed = [await store.renameKey('a', 'renamed'), await store.renameKey('zz', 'x')];
      const ruled = [
        await store.setKeyRules('b', { ...defaultKeyRules, expiresAt: 123, disabled: true }),
        await store.setKeyRules('zz', defaultKeyRules),
      ];
      await store.touchKeys(
        new Map([
          ['a', 50],
          ['b', 40],
          ['zz', 1],
        ]),
      );
      await store.touchKeys(new Map([['a', 10]]));
      const deleted = [await store.deleteKey('C'), await store.deleteKey('C')];
      return {
        keys: store.listKeys(),
        one: store.getKey('é'),
        rules: [...store.listKeyRules()],
        ruledRules: store.getKeyRules('ruled'),
        duplicate,
        renamed,
        ruled,
        deleted,
        deletedNames: [...(await store.deletedKeyNames())],
      };
    });
    expect(lite.keys.map((key) => key.id)).toEqual(['C', 'b', 'a', 'é', 'ruled'].filter((id) => id !== 'C'));
    expect(server).toEqual(lite);
  });

  it('for providers, prices and aliases', async () => {
    const [lite, server] = await onBoth(async (store) => {
      const provider: ProviderInfo = {
        id: 'up',
        kind: 'anthropic',
        base_url: 'https://x/v1',
        has_api_key: true,
        created_at: '2026-01-01T00:00:00.000Z',
        api_key_tail: 'wxyz',
      };
      await store.upsertProvider(provider);
      await store.upsertProvider({ ...provider, id: 'Up', has_api_key: false });
      await store.upsertProvider({
        ...provider,
        timeouts: { idle: 30, headers: 5 },
        created_at: '2030-01-01T00:00:00Z',
      });
      const badTime = await refuses(store.upsertProvider({ ...provider, id: 'bad', created_at: 'yesterday' }));
      const removed = [await store.removeProvider('Up'), await store.removeProvider('Up')];
      for (const model of ['b', 'B', 'a', 'é']) {
        await store.setPrice({
          model,
          inputPico: 1,
          outputPico: 2,
          cacheReadPico: 3,
          cacheWritePico: null,
          updatedAt: 4,
        });
      }
      const badPrice = await refuses(
        store.setPrice({
          model: 'neg',
          inputPico: -1,
          outputPico: 0,
          cacheReadPico: null,
          cacheWritePico: null,
          updatedAt: 1,
        }),
      );
      const aliases = [
        await store.setModelAlias('z', 'up/a', 1),
        await store.setModelAlias('Z', 'up/b', 2),
        await store.setModelAlias('z', 'up/c', 3),
        await store.setModelAlias('g', { targets: ['up/a', 'dn/b'], strategy: 'weighted', weights: [3, 1.5] }, 4),
        await store.setModelAlias('g', { targets: ['dn/b', 'up/a'], strategy: 'latency', weights: null }, 5),
        await store.setModelAlias('g', 'up/solo', 6),
      ];
      const badAlias = await refuses(store.setModelAlias('bad', 'no-slash', 1));
      return {
        providers: store.listProviders(),
        provider: store.getProvider('up'),
        badTime,
        removed,
        prices: store.listPrices(),
        priceRemoved: [await store.removePrice('B'), await store.removePrice('B')],
        pricesAfter: store.listPrices(),
        badPrice,
        aliases,
        aliasList: store.listModelAliases(),
        badAlias,
        aliasRemoved: [await store.removeModelAlias('Z'), await store.removeModelAlias('Z')],
      };
    });
    expect(lite.prices.map((price) => price.model)).toEqual(['B', 'a', 'b', 'é']);
    // A group reads back whole, and a one-target alias as an `ordered` group of one.
    expect(lite.aliases.slice(3, 5)).toMatchObject([
      undefined,
      { target: 'up/a', targets: ['up/a', 'dn/b'], strategy: 'weighted', weights: [3, 1.5] },
    ]);
    expect(lite.aliases[5]).toMatchObject({ targets: ['dn/b', 'up/a'], strategy: 'latency', weights: null });
    expect(lite.aliasList.find((alias) => alias.name === 'g')).toMatchObject({
      target: 'up/solo',
      targets: ['up/solo'],
      strategy: 'ordered',
      weights: null,
    });
    expect(server).toEqual(lite);
  });

  it('for usage rows, their listings, summaries and spend', async () => {
    const day = 86_400_000;
    const rows: UsageRecord[] = [
      usageRecord({ id: 'b', key_id: 'k1', created_at: 1_000, cost: 0.000_000_001_4, app_title: 'Beta' }),
      usageRecord({ id: 'B', key_id: 'k1', created_at: 1_000, cost: 0.25, app_referer: 'https://ref' }),
      usageRecord({ id: 'a', key_id: 'K2', created_at: 1_000, cost: null, unpriced: true, status: 500 }),
      usageRecord({ id: 'c', key_id: 'k1', created_at: day - 1, finish_reason: 'error', latency_ms: 2.5 }),
      usageRecord({ id: 'd', key_id: 'k1', created_at: day, finish_reason: 'cancelled', estimated: true, cost: 0.1 }),
      usageRecord({ id: 'f', key_id: 'k1', created_at: day, dropped_tools: ['web_search', 'mcp'] }),
      usageRecord({ id: 'e', key_id: 'k2', created_at: 3 * day + 5, model: 'up/é', streamed: true, ttft_ms: 7 }),
    ];
    const [lite, server] = await onBoth(async (store) => {
      await store.insertUsage(rows.slice(0, 3));
      await store.insertUsage(rows);
      await store.insertUsage([]);
      const rejected = await refuses(store.insertUsage([usageRecord({ id: 'x', key_id: 'k', model: null as never })]));
      return {
        all: await store.listUsage(),
        since: await store.listUsage({ sinceMs: day - 1 }),
        limited: await store.listUsage({ limit: 2.7 }),
        negative: await store.listUsage({ limit: -3 }),
        one: await store.getUsage('d'),
        none: await store.getUsage('nope'),
        rejected,
        summaries: await Promise.all((['day', 'model', 'app', 'key'] as const).map((by) => store.usageSummary({ by }))),
        window: await store.usageSummary({ by: 'key', sinceMs: 1_000, untilMs: day }),
        account: store.getCreditAccount(),
        spend: [store.keySpendSince('k1', 0), store.keySpendSince('k1', 1), store.keySpendSince('K2', 0)],
      };
    });
    expect(lite.all).toHaveLength(7);
    expect(lite.all.find((row) => row.id === 'f')?.dropped_tools).toEqual(['web_search', 'mcp']);
    expect(lite.rejected).toBe(true);
    expect(server).toEqual(lite);
  });

  it('for settings: unset, set, replaced, read from the snapshot', async () => {
    const [lite, server] = await onBoth(async (store) => {
      const unset = store.getSetting('response_cache');
      const before = store.changeVersion();
      await store.setSetting('response_cache', '{"ttlSeconds":60}');
      await store.setSetting('response_cache', '{"ttlSeconds":0,"scope":"é"}');
      await store.setSetting('other', '1');
      return {
        unset,
        moved: store.changeVersion() !== before,
        value: store.getSetting('response_cache'),
        other: store.getSetting('other'),
      };
    });
    expect(lite).toEqual({ unset: undefined, moved: true, value: '{"ttlSeconds":0,"scope":"é"}', other: '1' });
    expect(server).toEqual(lite);
  });

  it('for credits and their ledger', async () => {
    const [lite, server] = await onBoth(async (store) => {
      const answers = [
        await store.changeCredits({ action: 'add', amountNanos: 500, at: 1 }),
        await store.changeCredits({ action: 'set', balanceNanos: 1_000, at: 2 }),
      ];
      await store.insertUsage([usageRecord({ id: 'g', key_id: 'k', cost: 0.000_000_3 })]);
      answers.push(await store.changeCredits({ action: 'unset', at: 3 }));
      answers.push(await store.changeCredits({ action: 'add', amountNanos: 7, at: 4 }));
      return { answers, account: store.getCreditAccount(), ledger: await store.listCreditLedger() };
    });
    expect(lite.ledger).toHaveLength(4);
    expect(server).toEqual(lite);
  });

  it('for conversations, messages, search and MCP calls', async () => {
    const conversation = (id: string, title: string, updatedAt: number): Conversation => ({
      id,
      title,
      model: 'up/m',
      systemPrompt: 'Be brief.',
      temperature: 0.3,
      createdAt: 1,
      updatedAt,
    });
    const message = (id: string, conversationId: string, content: ChatMessage['content']): ChatMessage =>
      newChatMessage({
        id,
        conversationId,
        role: 'assistant',
        status: 'complete',
        createdAt: 10,
        content,
        toolCalls: [
          {
            id: 't1',
            type: 'function',
            function: { name: 'fs__read', arguments: '{}' },
            mcp: { server: 'fs', tool: 'read' },
          },
        ],
        reasoning: 'thought',
        cost: 0.5,
        model: 'up/m',
      });
    const [lite, server] = await onBoth(async (store) => {
      await store.chat.insertConversation(conversation('c1', 'Ärger mit 50% Rabatt', 5));
      await store.chat.insertConversation(conversation('c2', 'plain_title', 5));
      await store.chat.insertConversation(conversation('c3', 'Newest', 9));
      await store.chat.insertMessage(message('m2', 'c2', 'Searchable TEXT here'));
      await store.chat.insertMessage(message('m1', 'c2', [{ type: 'text', text: 'in parts' }]));
      await store.chat.insertMessage(message('m3', 'c3', null));
      const duplicate = await refuses(store.chat.insertMessage(message('m1', 'c2', 'again')));
      const searches: Record<string, string[]> = {};
      for (const query of [
        'ärger',
        'ÄRGER',
        'rger MIT',
        '50%',
        '0%r',
        '_',
        'e_t',
        'searchable text',
        'PARTS',
        '  ',
        'x',
      ]) {
        searches[query] = (await store.chat.listConversations({ query })).map((found) => found.id);
      }
      const updated = [
        await store.chat.updateConversation('c2', { model: null, title: undefined }, 11),
        await store.chat.updateConversation('none', { title: 'x' }, 11),
        await store.chat.updateMessage('m2', { content: 'new words', status: 'stopped', usage: null }),
      ];
      const messages = await store.chat.listMessages('c2');
      const deletedMessages = await store.chat.deleteMessages(['m1', 'm1', 'none']);
      const deletedConversation = [
        await store.chat.deleteConversation('c3'),
        await store.chat.deleteConversation('c3'),
      ];
      const call = {
        createdAt: 1,
        keyId: null,
        keyName: null,
        client: 'cli',
        server: 's',
        tool: 't',
        durationMs: 0.4,
        error: 'e',
      };
      await store.mcpCalls.insert(call);
      await store.mcpCalls.insert({ ...call, createdAt: 0, durationMs: -3 });
      return {
        list: await store.chat.listConversations(),
        limited: await store.chat.listConversations({ limit: 1 }),
        searches,
        duplicate,
        updated,
        messages,
        afterDeletes: [deletedMessages, deletedConversation, await store.chat.getMessage('m3')],
        calls: [await store.mcpCalls.recent(5), await store.mcpCalls.recent(0)],
      };
    });
    expect(lite.searches['50%']).toEqual(['c1']);
    expect(lite.searches['ÄRGER']).toEqual(['c1']);
    expect(server).toEqual(lite);
  });
});
