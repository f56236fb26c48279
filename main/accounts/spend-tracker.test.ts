import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../shared/api/index.js';
import { usageRecord } from '../../test/support/usage-record.js';
import type { Store } from '../store/index.js';
import { SpendTracker, UsageLog } from './index.js';
import { useStoreEachTest } from '../../test/support/store-each-test.js';

const temp = useStoreEachTest();
let store: Store;
let other: Store;
let usage: UsageLog;
let tracker: SpendTracker;
const clock = { now: Date.parse('2026-03-10T12:00:00Z') };

beforeEach(() => {
  store = temp.store;
  other = temp.openAnother();
  usage = new UsageLog(store);
  tracker = new SpendTracker(store, usage, () => clock.now);
});

afterEach(async () => {
  tracker.close();
  await usage.close();
});

function row(id: string, keyId: string, cost: number, createdAt = clock.now): UsageRecord {
  return usageRecord({ id, key_id: keyId, cost, created_at: createdAt });
}

describe('SpendTracker', () => {
  it('counts rows as soon as they are recorded, written or not, exactly once', async () => {
    usage.record(row('a', 'k', 0.5));
    expect(tracker.creditAccount().usedNanos).toBe(500_000_000);
    usage.record(row('b', 'k', 0.25));
    expect(tracker.creditAccount().usedNanos).toBe(750_000_000);
    await usage.flush();
    expect(tracker.creditAccount().usedNanos).toBe(750_000_000);
    expect(store.getCreditAccount().usedNanos).toBe(750_000_000);
    // A reload (another process changed something) reads the database and the queue again: no double count.
    usage.record(row('c', 'k', 0.125));
    await other.changeCredits({ action: 'set', balanceNanos: 1_000_000_000, at: 1 });
    expect(tracker.creditAccount()).toEqual({
      limited: true,
      grantedNanos: 1_750_000_000,
      usedNanos: 875_000_000,
    });
  });

  it('sees usage another process wrote', async () => {
    tracker.creditAccount();
    await other.insertUsage([row('elsewhere', 'k', 2)]);
    expect(tracker.creditAccount().usedNanos).toBe(2_000_000_000);
    expect(tracker.keyWindowSpend('k', 'daily')).toBe(2_000_000_000);
  });

  it('counts a key’s spend in its current window, which starts over with the clock', async () => {
    usage.record(row('yesterday', 'k', 1, clock.now - 86_400_000));
    usage.record(row('today', 'k', 2));
    usage.record(row('other key', 'j', 4));
    expect(tracker.keyWindowSpend('k', 'daily')).toBe(2_000_000_000);
    expect(tracker.keyWindowSpend('k', 'never')).toBe(3_000_000_000);
    await usage.flush();
    usage.record(row('later today', 'k', 0.5));
    expect(tracker.keyWindowSpend('k', 'daily')).toBe(2_500_000_000);
    clock.now += 86_400_000;
    expect(tracker.keyWindowSpend('k', 'daily')).toBe(0);
    expect(tracker.keyWindowSpend('k', 'monthly')).toBe(3_500_000_000);
    clock.now -= 86_400_000;
  });
});
