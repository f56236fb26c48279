// The response cache's table on both engines: an entry until it expires, the least recently used evicted first
// beyond the limits of entries and of bytes, and, on PostgreSQL, what one instance stores read by another.

import { describe, expect, it } from 'vitest';
import { usePostgresStores } from '../../test/support/postgres-store.js';
import { useStoreEachTest } from '../../test/support/store-each-test.js';
import type { ResponseCacheStore } from './index.js';

const sqlite = useStoreEachTest();
const postgres = usePostgresStores();

const engines: [string, () => Promise<ResponseCacheStore[]>][] = [
  ['SQLite', async () => [sqlite.store.responseCache, sqlite.openAnother().responseCache]],
  [
    'PostgreSQL',
    async () => {
      const url = await postgres.database();
      const a = await postgres.open(url, { instance: true });
      const b = await postgres.open(url, { instance: true });
      return [a.responseCache, b.responseCache];
    },
  ],
];

const roomy = { maxEntries: 100, maxBytes: 1_000_000 };
const entry = (key: string, createdAt: number, body = `{"answer":"${key}"}`) => ({
  key,
  body,
  createdAt,
  expiresAt: createdAt + 60_000,
});

describe.each(engines)('the response cache on %s', (_engine, open) => {
  it('answers an entry to every process on the database until it expires', async () => {
    const [one, other] = await open();
    await one.write(entry('k1', 1_000), roomy);
    expect(await other.read('k1', 2_000)).toEqual(entry('k1', 1_000));
    expect(await other.read('k1', 61_000)).toBeUndefined();
    expect(await other.read('unknown', 2_000)).toBeUndefined();
  });

  it('replaces an entry written again under its key', async () => {
    const [cache] = await open();
    await cache.write(entry('k1', 1_000, '"old"'), roomy);
    await cache.write(entry('k1', 2_000, '"new"'), roomy);
    expect((await cache.read('k1', 3_000))?.body).toBe('"new"');
  });

  it('evicts the least recently used beyond the number of entries', async () => {
    const [cache] = await open();
    const limits = { maxEntries: 2, maxBytes: 1_000_000 };
    await cache.write(entry('a', 1_000), limits);
    await cache.write(entry('b', 2_000), limits);
    await cache.read('a', 3_000); // a is now used more recently than b
    await cache.write(entry('c', 4_000), limits);
    expect(await cache.read('b', 4_500)).toBeUndefined();
    await cache.write(entry('d', 5_000), limits);
    const kept = [];
    for (const key of ['a', 'b', 'c', 'd']) if (await cache.read(key, 6_000)) kept.push(key);
    expect(kept).toEqual(['c', 'd']);
  });

  it('evicts the least recently used beyond the bytes allowed, and drops expired entries', async () => {
    const [cache] = await open();
    const body = JSON.stringify('x'.repeat(400));
    const limits = { maxEntries: 100, maxBytes: 1_000 };
    await cache.write({ ...entry('old', 1_000), expiresAt: 1_500 }, limits);
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries())
      await cache.write(entry(key, 2_000 + index, body), limits);
    await cache.write(entry('e', 3_000, body), limits);
    const kept = [];
    for (const key of ['old', 'a', 'b', 'c', 'd', 'e']) if (await cache.read(key, 3_100)) kept.push(key);
    expect(kept).toEqual(['d', 'e']);
  });
});
