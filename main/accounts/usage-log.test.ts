import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UsageRecord } from '../../shared/api/index.js';
import type { Store } from '../store/index.js';
import { UsageLog, UsageRowRejectedError, type UsageStore } from './index.js';
import { useStoreEachTest } from '../../test/support/store-each-test.js';

const temp = useStoreEachTest();
let store: Store;
const closers: (() => void)[] = [];

beforeEach(() => {
  store = temp.store;
});

afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function usageRow(id: string, createdAt = Date.now()): UsageRecord {
  return {
    id,
    created_at: createdAt,
    key_id: 'key1',
    app_title: null,
    app_referer: null,
    model: 'anthropic/claude-sonnet-4',
    provider: 'anthropic',
    streamed: true,
    status: 200,
    finish_reason: 'stop',
    prompt_tokens: 5,
    completion_tokens: 7,
    cached_tokens: 0,
    reasoning_tokens: 0,
    cost: null,
    latency_ms: 40,
    ttft_ms: 10,
    error: null,
    unpriced: false,
  };
}

/** A UsageStore that records each insertUsage batch and can be made to fail like a locked database. */
function instrumented(target: Store) {
  const state = { batches: [] as number[], failing: false };
  const usageStore: UsageStore = {
    insertUsage: async (rows) => {
      if (state.failing) throw new Error('database is locked');
      await target.insertUsage(rows);
      state.batches.push(rows.length);
    },
    isRowRejection: (error) => target.isRowRejection(error),
    getUsage: (id) => target.getUsage(id),
    listUsage: (query) => target.listUsage(query),
  };
  return { usageStore, state };
}

function openLog(usageStore: UsageStore, options: ConstructorParameters<typeof UsageLog>[1] = {}): UsageLog {
  const log = new UsageLog(usageStore, options);
  closers.push(async () => {
    try {
      await log.close();
    } catch {
      // A test that leaves the store failing has already checked what it wanted.
    }
  });
  return log;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => void | Promise<void>, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(10);
    }
  }
}

/** Lets a write started by record() finish: the store answers at once, so its promise settles before this. */
const writesSettled = () => new Promise((resolve) => setImmediate(resolve));

describe('UsageLog batching', () => {
  it('writes nothing per row, then all 200 queued rows in one transaction', async () => {
    const { usageStore, state } = instrumented(store);
    const log = openLog(usageStore);
    for (let index = 0; index < 199; index++) log.record(usageRow(`gen-${index}`));
    expect(state.batches).toEqual([]);
    expect(await store.listUsage()).toEqual([]);
    log.record(usageRow('gen-199'));
    await writesSettled();
    expect(state.batches).toEqual([200]);
    expect(await store.listUsage()).toHaveLength(200);
  });

  it('writes a partial batch 100 ms after the first row', async () => {
    vi.useFakeTimers();
    try {
      const { usageStore, state } = instrumented(store);
      const log = openLog(usageStore);
      log.record(usageRow('gen-1'));
      vi.advanceTimersByTime(50);
      log.record(usageRow('gen-2'));
      vi.advanceTimersByTime(49);
      expect(await store.getUsage('gen-1')).toBeUndefined();
      vi.advanceTimersByTime(1);
      expect(await store.listUsage()).toHaveLength(2);
      expect(state.batches).toEqual([2]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes the queue on close(), then writes each later row at once', async () => {
    const { usageStore, state } = instrumented(store);
    const log = openLog(usageStore);
    for (let index = 0; index < 5; index++) log.record(usageRow(`gen-${index}`));
    await log.close();
    expect(state.batches).toEqual([5]);
    expect(await store.listUsage()).toHaveLength(5);
    log.record(usageRow('late'));
    expect(await store.getUsage('late')).toBeDefined();
    await expect(log.close()).resolves.toBeUndefined();
  });

  it('keeps rows across reopening the database', async () => {
    const log = new UsageLog(store);
    const rows = [usageRow('gen-1', 1000), usageRow('gen-2', 2000)];
    for (const row of rows) log.record(row);
    await log.close();
    await store.close();
    store = temp.openAnother();
    expect(await new UsageLog(store).list()).toEqual([rows[1], rows[0]]);
  });
});

describe('UsageLog reads', () => {
  it('get and list include rows not written yet, merged newest first', async () => {
    const { usageStore, state } = instrumented(store);
    await store.insertUsage([usageRow('stored-1', 1000), usageRow('stored-3', 3000)]);
    const log = openLog(usageStore);
    log.record(usageRow('queued-2', 2000));
    log.record(usageRow('queued-4', 4000));
    expect(state.batches).toEqual([]);
    expect((await log.get('queued-2'))?.created_at).toBe(2000);
    expect((await log.get('stored-1'))?.created_at).toBe(1000);
    expect(await log.get('missing')).toBeUndefined();
    expect((await log.list()).map((row) => row.id)).toEqual(['queued-4', 'stored-3', 'queued-2', 'stored-1']);
    expect((await log.list({ limit: 3 })).map((row) => row.id)).toEqual(['queued-4', 'stored-3', 'queued-2']);
    expect((await log.list({ sinceMs: 2500 })).map((row) => row.id)).toEqual(['queued-4', 'stored-3']);
  });
});

describe('UsageLog failures', () => {
  it('keeps rows when a write fails, reports it, retries later and loses nothing', async () => {
    const { usageStore, state } = instrumented(store);
    const errors: unknown[] = [];
    const log = openLog(usageStore, { retryDelayMs: 30, onError: (error) => errors.push(error) });
    state.failing = true;
    for (let index = 0; index < 200; index++) log.record(usageRow(`gen-${index}`));
    await writesSettled();
    expect(errors).toHaveLength(1);
    // While failing, more rows do not retry the write on every record().
    for (let index = 200; index < 450; index++) expect(() => log.record(usageRow(`gen-${index}`))).not.toThrow();
    expect(errors).toHaveLength(1);
    expect(await log.get('gen-0')).toBeDefined();
    expect(await log.list()).toHaveLength(450);
    await expect(log.flush()).rejects.toThrow('database is locked');

    state.failing = false;
    await eventually(async () => expect(await store.listUsage()).toHaveLength(450));
    expect(state.batches).toEqual([450]);
  });

  it('drops only the rows the database rejects, reports each, and writes the rest', async () => {
    const { usageStore } = instrumented(store);
    const errors: unknown[] = [];
    const log = openLog(usageStore, { onError: (error) => errors.push(error) });
    const broken = { ...usageRow('broken'), model: undefined } as unknown as UsageRecord;
    log.record(usageRow('good-1', 1000));
    log.record(broken);
    log.record(usageRow('good-2', 2000));
    await log.flush();
    expect((await store.listUsage()).map((row) => row.id)).toEqual(['good-2', 'good-1']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(UsageRowRejectedError);
    expect((errors[0] as UsageRowRejectedError).rowId).toBe('broken');
    expect(await log.list()).toHaveLength(2);
  });

  it('bounds the queue while the database keeps failing, dropping the oldest rows loudly', async () => {
    const { usageStore, state } = instrumented(store);
    const errors: unknown[] = [];
    const log = openLog(usageStore, { maxQueued: 3, batchSize: 100, onError: (error) => errors.push(error) });
    state.failing = true;
    for (let index = 0; index < 5; index++) log.record(usageRow(`gen-${index}`, index));
    expect(errors.map((error) => String(error))).toEqual([
      expect.stringContaining('dropped the 1 oldest'),
      expect.stringContaining('dropped the 1 oldest'),
    ]);
    state.failing = false;
    await log.flush();
    expect((await store.listUsage()).map((row) => row.id)).toEqual(['gen-4', 'gen-3', 'gen-2']);
  });

  it('keeps the rows if the write on close() fails', async () => {
    const { usageStore, state } = instrumented(store);
    const log = openLog(usageStore);
    log.record(usageRow('gen-1'));
    state.failing = true;
    await expect(log.close()).rejects.toThrow('database is locked');
    state.failing = false;
    await log.close();
    expect(await store.getUsage('gen-1')).toBeDefined();
  });
});
