import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api/index.js';
import { usageRecord } from '../../test/support/usage-record.js';
import { PriceBook } from '../providers/pricing/index.js';
import { defaultKeyRules, type Store } from '../store/index.js';
import { Accounts, ApiKeys, UsageLog } from './index.js';
import { keyStanding, type StateRules } from './key-state.js';
import { useStoreEachTest } from '../../test/support/store-each-test.js';

const monday = Date.parse('2026-03-09T00:00:00Z');
const tuesdayNoon = Date.parse('2026-03-10T12:00:00Z');
const usd = 1_000_000_000;

describe('keyStanding', () => {
  const rules = (change: Partial<StateRules> = {}): StateRules => ({ ...defaultKeyRules, ...change });

  it('is active without rules, with nothing to say about a limit', () => {
    expect(keyStanding(rules(), 7 * usd, tuesdayNoon)).toEqual({
      state: 'active',
      limit_remaining: null,
      limit_resets_at: null,
    });
  });

  it('counts the limit down in its window and says when the window starts over', () => {
    const weekly = rules({ limitNanos: 5 * usd, limitReset: 'weekly' });
    expect(keyStanding(weekly, 1_250_000_000, tuesdayNoon)).toEqual({
      state: 'active',
      limit_remaining: 3.75,
      limit_resets_at: '2026-03-16T00:00:00.000Z',
    });
    expect(keyStanding(rules({ limitNanos: usd }), 0, tuesdayNoon).limit_resets_at).toBeNull(); // never resets
  });

  it('is limit_reached from the nano-dollar the spend reaches the limit, with what was overspent', () => {
    const daily = rules({ limitNanos: 2 * usd, limitReset: 'daily' });
    expect(keyStanding(daily, 2 * usd - 1, tuesdayNoon).state).toBe('active');
    expect(keyStanding(daily, 2 * usd, tuesdayNoon)).toEqual({
      state: 'limit_reached',
      limit_remaining: 0,
      limit_resets_at: '2026-03-11T00:00:00.000Z',
    });
    expect(keyStanding(daily, 2.5 * usd, tuesdayNoon).limit_remaining).toBe(-0.5);
    expect(keyStanding(rules({ limitNanos: 0 }), 0, tuesdayNoon).state).toBe('limit_reached');
  });

  it('is expired from the millisecond of expiry on', () => {
    const expiring = rules({ expiresAt: tuesdayNoon });
    expect(keyStanding(expiring, 0, tuesdayNoon - 1).state).toBe('active');
    expect(keyStanding(expiring, 0, tuesdayNoon).state).toBe('expired');
  });

  it('names the first refusal the gateway would give: disabled, then expired, then the limit', () => {
    const everything = { disabled: true, expiresAt: monday, limitNanos: usd };
    expect(keyStanding(rules(everything), usd, tuesdayNoon).state).toBe('disabled');
    expect(keyStanding(rules({ ...everything, disabled: false }), usd, tuesdayNoon).state).toBe('expired');
    expect(keyStanding(rules({ ...everything, disabled: false, expiresAt: null }), usd, tuesdayNoon).state).toBe(
      'limit_reached',
    );
  });
});

describe('Accounts.keysWithUsage: the state the gateway acts on', () => {
  const temp = useStoreEachTest();
  let store: Store;
  let keys: ApiKeys;
  let usage: UsageLog;
  let accounts: Accounts;
  const clock = { now: tuesdayNoon };

  beforeEach(() => {
    store = temp.store;
    const now = () => clock.now;
    keys = new ApiKeys(store, { now });
    usage = new UsageLog(store);
    accounts = new Accounts({ store, keys, usage, prices: new PriceBook(store), now });
    clock.now = tuesdayNoon;
  });

  afterEach(async () => {
    accounts.close();
    await usage.close();
    await keys.close();
  });

  const spend = (keyId: string, cost: number) =>
    accounts.record(usageRecord({ id: `gen-${clock.now}-${cost}`, key_id: keyId, cost, created_at: clock.now }));
  const listed = async (keyId: string) => (await accounts.keysWithUsage()).find((key) => key.id === keyId)!;
  const refusal = (action: () => void) => {
    try {
      action();
    } catch (error) {
      if (error instanceof ApiError) return error.status;
      throw error;
    }
    return null;
  };

  it('lists limit_reached exactly when requests get 402, and active again when the window starts over', async () => {
    const key = await keys.create('ci', { limit: 1, limit_reset: 'daily' });
    spend(key.id, 0.6);
    expect(await listed(key.id)).toMatchObject({
      state: 'active',
      limit_remaining: 0.4,
      limit_resets_at: '2026-03-11T00:00:00.000Z',
      usage: { requests: 1, cost: 0.6, unpriced_requests: 0 },
    });
    expect(accounts.keyStatus(key.id).limit_remaining).toBe(0.4);
    expect(refusal(() => accounts.admit(key.id, { model: 'up/m' }))).toBeNull();

    spend(key.id, 0.4);
    expect(await listed(key.id)).toMatchObject({ state: 'limit_reached', limit_remaining: 0 });
    expect(refusal(() => accounts.admit(key.id, { model: 'up/m' }))).toBe(402);

    clock.now += 24 * 60 * 60 * 1000;
    expect(await listed(key.id)).toMatchObject({
      state: 'active',
      limit_remaining: 1,
      limit_resets_at: '2026-03-12T00:00:00.000Z',
    });
    expect(refusal(() => accounts.admit(key.id, { model: 'up/m' }))).toBeNull();
  });

  it('lists expired and disabled exactly when the key’s secret gets 401', async () => {
    const key = await keys.create('script', { expires_at: '2026-03-10T13:00:00Z' });
    expect((await listed(key.id)).state).toBe('active');
    expect(keys.authenticate(key.key)?.id).toBe(key.id);

    clock.now = Date.parse('2026-03-10T13:00:00Z');
    expect((await listed(key.id)).state).toBe('expired');
    expect(refusal(() => keys.authenticate(key.key))).toBe(401);

    await keys.update(key.id, { expires_at: null, disabled: true });
    expect((await listed(key.id)).state).toBe('disabled');
    expect(refusal(() => keys.authenticate(key.key))).toBe(401);
  });
});
