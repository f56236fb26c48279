// A cooldown decided by one process or instance holds in the others: two TargetHealth services on two stores of one
// database, SQLite (two handles on the file, as two processes) and PostgreSQL (two instances).

import { describe, expect, it } from 'vitest';
import type { Store } from '../store/index.js';
import { usePostgresStores } from '../../test/support/postgres-store.js';
import { useStoreEachTest } from '../../test/support/store-each-test.js';
import { waitFor } from '../../test/support/wait-for.js';
import { UpstreamError } from './http/upstream-errors.js';
import { TargetHealth } from './target-health.js';

const model = 'acme/m1';
const settings = { failuresToCool: 2, windowMs: 60_000, cooldownMs: 30_000, maxCooldownMs: 600_000 };
const overloaded = new UpstreamError({ status: 503, message: 'overloaded', provider: 'acme', upstreamStatus: 503 });

async function sharesCooldowns(first: Store, second: Store): Promise<void> {
  const a = new TargetHealth({ store: first, settingsFor: () => settings });
  const b = new TargetHealth({ store: second, settingsFor: () => settings });
  const start = Date.now();
  expect(b.refusedUntil(model, start)).toBeNull();
  a.failed(model, 'acme', overloaded, start);
  a.failed(model, 'acme', overloaded, start);
  const until = start + 30_000;
  expect(a.refusedUntil(model, start)).toBe(until);
  // B counts none of A's failures, yet refuses the target once A's cooldown reaches it.
  await waitFor(() => b.refusedUntil(model, start) === until, { what: "instance B to learn A's cooldown" });
  expect(b.stateOf(model, start)).toEqual({ model, provider: 'acme', state: 'cooling', until });
  // B takes the trial when the cooldown ends; A, told of the claim, lets nothing through while it runs.
  expect(b.refusedUntil(model, until)).toBeNull();
  await waitFor(() => first.listTargetHealth()[0]?.state === 'trial', { what: "instance A to learn B's trial" });
  expect(a.refusedUntil(model, until + 1)).not.toBeNull();
  // The trial answers: both are healthy again.
  b.answered(model);
  await waitFor(() => a.stateOf(model, until + 2) === undefined, { what: 'instance A to learn the target is healthy' });
  expect(a.refusedUntil(model, until + 2)).toBeNull();
  expect(first.listTargetHealth()).toEqual([]);
}

describe('a cooldown shared on one SQLite file', () => {
  const each = useStoreEachTest();

  it('holds in another process, which then sees the trial and the recovery', async () => {
    await sharesCooldowns(each.store, each.openAnother());
  });
});

describe('a cooldown shared on one PostgreSQL database', () => {
  const postgres = usePostgresStores();

  it('holds in another instance, which then sees the trial and the recovery', async () => {
    const url = await postgres.database();
    await sharesCooldowns(await postgres.open(url), await postgres.open(url));
  });

  it('is stored so that a restarted instance still refuses the target', async () => {
    const url = await postgres.database();
    const a = new TargetHealth({ store: await postgres.open(url), settingsFor: () => settings });
    const now = Date.now();
    a.failed(model, 'acme', overloaded, now);
    a.failed(model, 'acme', overloaded, now);
    await waitFor(async () => (await postgres.open(url)).listTargetHealth().length === 1, { what: 'the stored row' });
    const restarted = new TargetHealth({ store: await postgres.open(url), settingsFor: () => settings });
    expect(restarted.refusedUntil(model, now)).toBe(now + 30_000);
  });
});
