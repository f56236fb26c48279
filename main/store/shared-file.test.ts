// Two Stores on one file, as when `switchyard serve` runs and the CLI changes keys at the same time.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderInfo, UsageRecord } from '../../shared/api/index.js';
import { usageRecord } from '../../test/support/usage-record.js';
import { openStore, type NewKeyRow, type Store } from './index.js';

let dataDir: string;
let first: Store;
let second: Store;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-'));
  first = openStore(dataDir);
  second = openStore(dataDir);
});

afterEach(() => {
  first.close();
  second.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function key(id: string): NewKeyRow {
  return { id, name: id, label: 'label', secretHash: Buffer.alloc(32, 7), createdAt: Date.now() };
}

function usageRow(id: string): UsageRecord {
  return usageRecord({ id, key_id: 'k', model: 'openai/gpt-4o', provider: 'openai', cost: null, latency_ms: 5 });
}

const provider: ProviderInfo = {
  id: 'openai',
  kind: 'openai',
  base_url: 'https://api.openai.com/v1',
  has_api_key: false,
  created_at: new Date().toISOString(),
};

describe('two Stores on one file', () => {
  it('see each other’s writes', () => {
    first.insertKey(key('k1'));
    expect(second.getKey('k1')?.name).toBe('k1');
    second.upsertProvider(provider);
    expect(first.getProvider('openai')).toEqual(provider);
    second.insertUsage([usageRow('gen-1')]);
    expect(first.getUsage('gen-1')?.model).toBe('openai/gpt-4o');
  });

  it('interleave writes of every kind without SQLITE_BUSY', () => {
    for (let index = 0; index < 100; index++) {
      const [writer, other] = index % 2 === 0 ? [first, second] : [second, first];
      writer.insertKey(key(`k${index}`));
      writer.insertUsage([usageRow(`gen-${index}-a`), usageRow(`gen-${index}-b`)]);
      other.touchKeys(new Map([[`k${index}`, Date.now()]]));
      other.listUsage({ limit: 5 });
      if (index % 3 === 0) other.deleteKey(`k${index}`);
    }
    expect(first.listUsage()).toHaveLength(200);
    expect(second.listKeys()).toHaveLength(66);
  });
});

describe('changeVersion', () => {
  it('stays the same while nothing changes', () => {
    first.insertKey(key('k1'));
    const version = first.changeVersion();
    first.getKey('k1');
    first.listKeys();
    second.getKey('k1');
    expect(first.changeVersion()).toBe(version);
    expect(first.changeVersion()).toBe(version);
  });

  it('changes after this Store writes keys or providers', () => {
    const versions = [first.changeVersion()];
    first.insertKey(key('k1'));
    versions.push(first.changeVersion());
    first.deleteKey('k1');
    versions.push(first.changeVersion());
    first.upsertProvider(provider);
    versions.push(first.changeVersion());
    first.removeProvider('openai');
    versions.push(first.changeVersion());
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('changes after this Store or another one sets or removes a model alias', () => {
    const versions = [first.changeVersion()];
    first.setModelAlias('fast', 'openai/gpt-4o-mini', 1);
    versions.push(first.changeVersion());
    first.setModelAlias('fast', 'openai/gpt-4o', 1);
    versions.push(first.changeVersion());
    first.removeModelAlias('fast');
    versions.push(first.changeVersion());
    expect(new Set(versions).size).toBe(versions.length);
    const seen = first.changeVersion();
    second.setModelAlias('fast', 'openai/gpt-4o', 2);
    expect(first.changeVersion()).not.toBe(seen);
    expect(first.listModelAliases().map((alias) => alias.target)).toEqual(['openai/gpt-4o']);
  });

  it('does not change for this Store’s usage inserts, key touches or no-op deletes', () => {
    first.insertKey(key('k1'));
    const version = first.changeVersion();
    first.insertUsage([usageRow('gen-1')]);
    first.touchKeys(new Map([['k1', Date.now()]]));
    first.deleteKey('missing');
    first.removeProvider('missing');
    first.removeModelAlias('missing');
    expect(first.changeVersion()).toBe(version);
  });

  it('changes after ANOTHER connection commits a change', () => {
    first.insertKey(key('k1'));
    const before = second.changeVersion();
    first.deleteKey('k1');
    const afterDelete = second.changeVersion();
    expect(afterDelete).not.toBe(before);
    expect(second.changeVersion()).toBe(afterDelete);
    first.upsertProvider(provider);
    expect(second.changeVersion()).not.toBe(afterDelete);
  });
});

describe("changeVersion with dataVersionReads: 'once-per-turn'", () => {
  let gateway: Store;
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  beforeEach(() => {
    gateway = openStore(dataDir, { dataVersionReads: 'once-per-turn' });
  });

  afterEach(() => gateway.close());

  it('reads the file once per turn: another connection’s commit shows from the next turn on', async () => {
    const before = gateway.changeVersion();
    first.insertKey(key('k1'));
    expect(gateway.changeVersion()).toBe(before);
    await nextTurn();
    expect(gateway.changeVersion()).not.toBe(before);
  });

  it('reads the file every time when asked fresh (authentication), and later calls in the turn see that read', () => {
    const before = gateway.changeVersion();
    first.insertKey(key('k1'));
    const fresh = gateway.changeVersion({ fresh: true });
    expect(fresh).not.toBe(before);
    expect(gateway.changeVersion()).toBe(fresh);
  });

  it('counts its own writes at once', () => {
    const before = gateway.changeVersion();
    gateway.insertKey(key('k1'));
    expect(gateway.changeVersion()).not.toBe(before);
  });
});
