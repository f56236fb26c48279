// Several PostgresStore instances on one database, as several `switchyard serve` processes would hold it: changes
// reach every instance, revocations wait until every instance applied them, a lost listener fails closed until
// resynced, and rate windows, usage and credits are counted once for all.

import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../shared/api/index.js';
import { withPostgresClient } from '../../../test/support/postgres.js';
import { usePostgresStores } from '../../../test/support/postgres-store.js';
import { usageRecord } from '../../../test/support/usage-record.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { defaultKeyRules } from '../contract/keys.js';
import { leaseMs, type PostgresStore } from './postgres-store.js';

const stores = usePostgresStores();
const hash = Buffer.from('b'.repeat(64), 'hex');

async function twoInstances(): Promise<[PostgresStore, PostgresStore, string]> {
  const url = await stores.database();
  const a = await stores.open(url, { instance: true });
  const b = await stores.open(url, { instance: true });
  return [a, b, url];
}

function newKey(id: string) {
  return { id, name: id, label: 'sk-…', secretHash: hash, createdAt: Date.now() };
}

/** What authentication does: ask for the newest state, then read the key from the snapshot. */
function authenticate(store: PostgresStore, id: string) {
  store.changeVersion({ fresh: true });
  return store.getKey(id);
}

describe('two instances on one database', () => {
  it('see every change of the other, tables and rows', async () => {
    const [a, b] = await twoInstances();
    await a.setPrice({
      model: 'm',
      inputPico: 1,
      outputPico: 2,
      cacheReadPico: null,
      cacheWritePico: null,
      updatedAt: 1,
    });
    await a.setModelAlias('fast', 'up/m', 1);
    await a.upsertProvider({
      id: 'up',
      kind: 'openai',
      base_url: 'http://x/v1',
      has_api_key: false,
      created_at: new Date(1).toISOString(),
    });
    await a.touchKeys(new Map([['none', 1]]));
    await waitFor(() => b.listPrices().length === 1 && b.listModelAliases().length === 1 && b.getProvider('up'), {
      what: 'the price, alias and provider on the other instance',
    });
    expect(b.listPrices()).toEqual(a.listPrices());
    expect(b.listModelAliases()).toEqual(a.listModelAliases());
    expect(b.listProviders()).toEqual(a.listProviders());
  });

  it('refuse a key deleted through the other on the very next call, and accept a new one at once (200 rounds)', async () => {
    const [a, b] = await twoInstances();
    for (let round = 0; round < 200; round++) {
      const id = `k${round}`;
      await a.insertKey(newKey(id));
      expect(authenticate(b, id)?.id, `round ${round}: created`).toBe(id);
      expect(await a.deleteKey(id)).toBe(true);
      expect(authenticate(b, id), `round ${round}: deleted`).toBeUndefined();
    }
  });

  it('apply a lowered rule through the other before the write answers', async () => {
    const [a, b] = await twoInstances();
    await a.insertKey(newKey('k'));
    for (let round = 0; round < 50; round++) {
      await b.setKeyRules('k', { ...defaultKeyRules, disabled: round % 2 === 0 });
      a.changeVersion({ fresh: true });
      expect(a.getKeyRules('k').disabled, `round ${round}`).toBe(round % 2 === 0);
    }
  });

  it('fail closed when the listener is cut, then resync everything that changed meanwhile', async () => {
    const url = await stores.database();
    const a = await stores.open(url, { instance: true });
    // Slow to reconnect, so that the time without a listener can be looked at.
    const b = await stores.open(url, { instance: true, reconnectDelayMs: 1_000 });
    await a.insertKey(newKey('gone'));
    await withPostgresClient(url, async (admin) => {
      await admin.query('SELECT pg_terminate_backend($1)', [b.listenerBackendPid()]);
      const refusal = await waitFor(
        () => {
          try {
            b.changeVersion({ fresh: true });
            return undefined;
          } catch (error) {
            return error;
          }
        },
        { what: 'the instance to refuse once its listener is gone' },
      );
      expect(refusal).toBeInstanceOf(ApiError);
      expect(refusal).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
      expect(await b.readiness()).toEqual({
        ready: false,
        checks: { database: 'reachable', migrations: 'current', listener: 'resyncing' },
      });
      // Written while b cannot hear it: b must find it when it resyncs.
      await a.deleteKey('gone');
      await waitFor(
        async () => {
          try {
            b.changeVersion({ fresh: true });
            return true;
          } catch {
            return false;
          }
        },
        { what: 'the instance to resync' },
      );
      expect(b.getKey('gone')).toBeUndefined();
      expect(await b.readiness()).toMatchObject({ ready: true, checks: { listener: 'listening' } });
      await a.insertKey(newKey('after'));
      expect(authenticate(b, 'after')?.id).toBe('after');
    });
  });

  it('admit exactly the limit from 8 callers racing on two instances', async () => {
    const [a, b] = await twoInstances();
    await a.insertKey(newKey('k'));
    const now = Date.now();
    let admitted = 0;
    let refusedWait = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, caller) => {
        const store = caller % 2 === 0 ? a : b;
        while (next++ < 200) {
          const wait = await store.admitRequest('k', 50, now + (next % 7));
          if (wait === 0) admitted++;
          else refusedWait = wait;
        }
      }),
    );
    expect(admitted).toBe(50);
    expect(refusedWait).toBeGreaterThan(59_990);
    expect(refusedWait).toBeLessThanOrEqual(60_000);
    // The window slides: a minute after the oldest admission there is room again.
    expect(await b.admitRequest('k', 50, now + 60_001)).toBe(0);
  });

  it('count usage written by both instances exactly once, and show every instance the totals', async () => {
    const [a, b] = await twoInstances();
    const rows = (prefix: string) =>
      Array.from({ length: 120 }, (_, index) =>
        usageRecord({ id: `${prefix}${index}`, key_id: index % 2 ? 'k1' : 'k2', cost: 0.000_001 * (index + 1) }),
      );
    // The same batch twice (a retry after an ambiguous commit) and overlapping batches from both instances.
    await Promise.all([
      a.insertUsage(rows('a')),
      b.insertUsage(rows('b')),
      a.insertUsage(rows('b')),
      b.insertUsage(rows('a')),
    ]);
    const expected = 2 * rows('a').reduce((sum, row) => sum + Math.round(row.cost! * 1e9), 0);
    const today = Math.floor(Date.now() / 86_400_000);
    for (const store of [a, b]) {
      await waitFor(() => store.getCreditAccount().usedNanos === expected, { what: 'the totals on every instance' });
      expect(store.keySpendSince('k1', today) + store.keySpendSince('k2', today)).toBe(expected);
    }
    const summary = await a.usageSummary({ by: 'key' });
    expect(summary.reduce((sum, group) => sum + group.costNanos, 0)).toBe(expected);
    expect(summary.reduce((sum, group) => sum + group.requests, 0)).toBe(240);
  });

  it('grant credits through one and refuse on the other at once', async () => {
    const [a, b] = await twoInstances();
    await a.changeCredits({ action: 'set', balanceNanos: 5, at: 1 });
    b.changeVersion({ fresh: true });
    expect(b.getCreditAccount()).toEqual({ limited: true, grantedNanos: 5, usedNanos: 0 });
    await b.changeCredits({ action: 'set', balanceNanos: 0, at: 2 });
    a.changeVersion({ fresh: true });
    expect(a.getCreditAccount().grantedNanos).toBe(0);
    expect((await a.listCreditLedger()).map((row) => row.action)).toEqual(['set', 'set']);
  });

  it('refuse while their lease has run out (a stalled process), and vouch again once renewed', async () => {
    const [a, b] = await twoInstances();
    await a.insertKey(newKey('k'));
    const realNow = Date.now;
    // b's clock jumps past its lease, as when its event loop was stuck for longer than the lease: from then on
    // it vouches again only once it renewed its lease (after reloading everything).
    const stalled = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + leaseMs + 1);
    try {
      expect(() => b.changeVersion({ fresh: true })).toThrow(ApiError);
      await waitFor(
        () => {
          try {
            return authenticate(b, 'k');
          } catch {
            return undefined;
          }
        },
        { what: 'the instance to vouch again' },
      );
    } finally {
      stalled.mockRestore();
    }
  });

  it('deregister on close, so writers stop waiting for them', async () => {
    const [a, b, url] = await twoInstances();
    await withPostgresClient(url, async (admin) => {
      const count = async () => (await admin.query('SELECT count(*)::int AS n FROM instances')).rows[0].n as number;
      expect(await count()).toBe(2);
      await b.close();
      expect(await count()).toBe(1);
      await a.close();
      expect(await count()).toBe(0);
    });
  });
});
