// Two Stores on one file, as when `switchyard serve` runs and the CLI changes keys at the same time.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderInfo, UsageRecord } from '../../../shared/api/index.js';
import { usageRecord } from '../../../test/support/usage-record.js';
import { openStore, type NewKeyRow, type Store } from '../index.js';

let dataDir: string;
let first: Store;
let second: Store;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-'));
  first = openStore(dataDir);
  second = openStore(dataDir);
});

afterEach(async () => {
  await first.close();
  await second.close();
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
  it('see each other’s writes', async () => {
    await first.insertKey(key('k1'));
    expect(second.getKey('k1')?.name).toBe('k1');
    await second.upsertProvider(provider);
    expect(first.getProvider('openai')).toEqual(provider);
    await second.insertUsage([usageRow('gen-1')]);
    expect((await first.getUsage('gen-1'))?.model).toBe('openai/gpt-4o');
  });

  it('interleave writes of every kind without SQLITE_BUSY', async () => {
    for (let index = 0; index < 100; index++) {
      const [writer, other] = index % 2 === 0 ? [first, second] : [second, first];
      await writer.insertKey(key(`k${index}`));
      await writer.insertUsage([usageRow(`gen-${index}-a`), usageRow(`gen-${index}-b`)]);
      await other.touchKeys(new Map([[`k${index}`, Date.now()]]));
      await other.listUsage({ limit: 5 });
      if (index % 3 === 0) await other.deleteKey(`k${index}`);
    }
    expect(await first.listUsage()).toHaveLength(200);
    expect(second.listKeys()).toHaveLength(66);
  });
});

describe('changeVersion', () => {
  it('stays the same while nothing changes', async () => {
    await first.insertKey(key('k1'));
    const version = first.changeVersion();
    first.getKey('k1');
    first.listKeys();
    second.getKey('k1');
    expect(first.changeVersion()).toBe(version);
    expect(first.changeVersion()).toBe(version);
  });

  it('changes after this Store writes keys or providers', async () => {
    const versions = [first.changeVersion()];
    await first.insertKey(key('k1'));
    versions.push(first.changeVersion());
    await first.deleteKey('k1');
    versions.push(first.changeVersion());
    await first.upsertProvider(provider);
    versions.push(first.changeVersion());
    await first.removeProvider('openai');
    versions.push(first.changeVersion());
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('changes after this Store or another one sets or removes a model alias', async () => {
    const versions = [first.changeVersion()];
    await first.setModelAlias('fast', 'openai/gpt-4o-mini', 1);
    versions.push(first.changeVersion());
    await first.setModelAlias('fast', 'openai/gpt-4o', 1);
    versions.push(first.changeVersion());
    await first.removeModelAlias('fast');
    versions.push(first.changeVersion());
    expect(new Set(versions).size).toBe(versions.length);
    const seen = first.changeVersion();
    await second.setModelAlias('fast', 'openai/gpt-4o', 2);
    expect(first.changeVersion()).not.toBe(seen);
    expect(first.listModelAliases().map((alias) => alias.target)).toEqual(['openai/gpt-4o']);
  });

  it('does not change for this Store’s usage inserts, key touches or no-op deletes', async () => {
    await first.insertKey(key('k1'));
    const version = first.changeVersion();
    await first.insertUsage([usageRow('gen-1')]);
    await first.touchKeys(new Map([['k1', Date.now()]]));
    await first.deleteKey('missing');
    await first.removeProvider('missing');
    await first.removeModelAlias('missing');
    expect(first.changeVersion()).toBe(version);
  });

  it('changes after ANOTHER connection commits a change', async () => {
    await first.insertKey(key('k1'));
    const before = second.changeVersion();
    await first.deleteKey('k1');
    const afterDelete = second.changeVersion();
    expect(afterDelete).not.toBe(before);
    expect(second.changeVersion()).toBe(afterDelete);
    await first.upsertProvider(provider);
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
    await first.insertKey(key('k1'));
    expect(gateway.changeVersion()).toBe(before);
    await nextTurn();
    expect(gateway.changeVersion()).not.toBe(before);
  });

  it('reads the file every time when asked fresh (authentication), and later calls in the turn see that read', async () => {
    const before = gateway.changeVersion();
    await first.insertKey(key('k1'));
    const fresh = gateway.changeVersion({ fresh: true });
    expect(fresh).not.toBe(before);
    expect(gateway.changeVersion()).toBe(fresh);
  });

  it('counts its own writes at once', async () => {
    const before = gateway.changeVersion();
    await gateway.insertKey(key('k1'));
    expect(gateway.changeVersion()).not.toBe(before);
  });
});
