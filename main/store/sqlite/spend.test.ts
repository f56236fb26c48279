// Migration 2 and the spend tables: what credits, key limits and reconciliation rely on.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../../shared/api/index.js';
import { usageRecord } from '../../../test/support/usage-record.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations.js';
import { databaseFileName, defaultKeyRules, openStore, type Store } from '../index.js';

let dataDir: string;
let store: Store;
const day = 86_400_000;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-'));
});

afterEach(async () => {
  await store?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function row(id: string, keyId: string, createdAt: number, cost: number | null): UsageRecord {
  return usageRecord({ id, key_id: keyId, created_at: createdAt, streamed: true, cost, unpriced: cost === null });
}

function openTheStore(): void {
  store = openStore(dataDir);
}

function raw(): Database.Database {
  return new Database(path.join(dataDir, databaseFileName), { readonly: true });
}

describe('migration 2', () => {
  it('keeps existing rows and keys: exact costs, unpriced marks, totals and per-day buckets from the old rows', async () => {
    const db = new Database(path.join(dataDir, databaseFileName));
    migrate(db, migrations.slice(0, 1));
    db.prepare(
      "INSERT INTO api_keys (id, name, label, secret_hash, created_at) VALUES ('old', 'old', 'l', zeroblob(32), 1)",
    ).run();
    const insert = db.prepare(
      `INSERT INTO usage_log (id, created_at, key_id, model, streamed, status, prompt_tokens, completion_tokens,
         cached_tokens, reasoning_tokens, cost, latency_ms) VALUES (?, ?, 'old', 'm', 1, 200, 1, 1, 0, 0, ?, 1)`,
    );
    insert.run('a', 3 * day + 5, 0.000123);
    insert.run('b', 3 * day + 9, 0.1);
    insert.run('c', 4 * day, null);
    db.close();

    store = openStore(dataDir);
    expect(store.getKeyRules('old')).toEqual(defaultKeyRules);
    expect(await store.getUsage('c')).toMatchObject({ cost: null, unpriced: true });
    expect(await store.getUsage('a')).toMatchObject({ unpriced: false });
    expect(store.getCreditAccount()).toEqual({ limited: false, grantedNanos: 0, usedNanos: 100_123_000 });
    expect(store.keySpendSince('old', 3)).toBe(100_123_000);
    expect(store.keySpendSince('old', 4)).toBe(0);
    const check = raw();
    try {
      expect(check.prepare("SELECT cost_nanos FROM usage_log WHERE id = 'a'").pluck().get()).toBe(123_000);
    } finally {
      check.close();
    }
  });
});

describe('usage inserts count spend in the same transaction', () => {
  beforeEach(openTheStore);

  it('adds each inserted row’s exact cost to the account and its key’s day, once', async () => {
    await store.insertUsage([row('g1', 'k1', 10 * day + 1, 0.25), row('g2', 'k1', 11 * day, 0.000000001)]);
    await store.insertUsage([
      row('g1', 'k1', 10 * day + 1, 0.25),
      row('g3', 'k2', 11 * day, 1),
      row('g4', 'k2', 12 * day, null),
    ]);
    expect(store.getCreditAccount().usedNanos).toBe(1_250_000_001);
    expect(store.keySpendSince('k1', 0)).toBe(250_000_001);
    expect(store.keySpendSince('k1', 11)).toBe(1);
    expect(store.keySpendSince('k2', 12)).toBe(0);
    const check = raw();
    try {
      const sum = check.prepare('SELECT sum(cost_nanos) FROM usage_log').pluck().get();
      expect(sum).toBe(store.getCreditAccount().usedNanos);
    } finally {
      check.close();
    }
  });

  it('rolls the spend back with a rejected batch', async () => {
    const broken = { ...row('bad', 'k1', 1, 5), model: undefined } as unknown as UsageRecord;
    await expect(store.insertUsage([row('ok', 'k1', 1, 5), broken])).rejects.toThrow();
    expect(store.getCreditAccount().usedNanos).toBe(0);
    expect(store.keySpendSince('k1', 0)).toBe(0);
  });
});

describe('credits', () => {
  beforeEach(openTheStore);

  it('set, add and unset keep granted = sum of the ledger and write an entry each', async () => {
    await store.insertUsage([row('g1', 'k', 1, 2)]);
    expect(await store.changeCredits({ action: 'add', amountNanos: 5, at: 1 })).toEqual({
      limited: true,
      grantedNanos: 2_000_000_005,
      usedNanos: 2_000_000_000,
    });
    await store.changeCredits({ action: 'set', balanceNanos: 1_000, at: 2 });
    await store.changeCredits({ action: 'add', amountNanos: 500, at: 3 });
    await store.changeCredits({ action: 'unset', at: 4 });
    // Adding to an unlimited account starts from 0, whatever was granted before.
    const after = await store.changeCredits({ action: 'add', amountNanos: 7, at: 5 });
    expect(after.grantedNanos - after.usedNanos).toBe(7);
    const ledger = await store.listCreditLedger();
    expect(ledger.map((entry) => [entry.action, entry.balanceNanos])).toEqual([
      ['add', 5],
      ['set', 1_000],
      ['add', 1_500],
      ['unset', null],
      ['add', 7],
    ]);
    expect(ledger.reduce((sum, entry) => sum + entry.amountNanos, 0)).toBe(after.grantedNanos);
  });

  it('changes changeVersion, so that other processes reload balances', async () => {
    const other = openStore(dataDir);
    try {
      const before = other.changeVersion();
      const ownBefore = store.changeVersion();
      await store.changeCredits({ action: 'set', balanceNanos: 1, at: 1 });
      expect(store.changeVersion()).not.toBe(ownBefore);
      expect(other.changeVersion()).not.toBe(before);
      expect(other.getCreditAccount().limited).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('key rules', () => {
  beforeEach(openTheStore);

  it('are stored with the key atomically, updated, and deleted with it', async () => {
    const rules = { ...defaultKeyRules, limitNanos: 5, limitReset: 'weekly' as const, allowedModels: ['a/*'], rpm: 3 };
    await store.insertKey({ id: 'k', name: 'k', label: 'l', secretHash: Buffer.alloc(32), createdAt: 1 }, rules);
    expect(store.getKeyRules('k')).toEqual(rules);
    expect(await store.setKeyRules('k', { ...rules, management: false })).toBe(true);
    expect(store.listKeyRules().get('k')?.management).toBe(false);
    expect(await store.setKeyRules('missing', rules)).toBe(false);
    await store.deleteKey('k');
    expect(store.listKeyRules().size).toBe(0);
  });
});
