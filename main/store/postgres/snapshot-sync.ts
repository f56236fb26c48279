// How a PostgreSQL instance's snapshot stays current (decision 017), apart from what the store reads and writes.
//
// - Every write of the snapshot is one transaction that takes the changes lock, gets a sequence number in
//   `changes` and ends with NOTIFY switchyard_changed; every instance's listener reloads what it names and records
//   that it applied that number. The writer reloads it too before it answers (it reads its own writes), and writes
//   that change who may do what wait until every instance with a live lease has applied them (the barrier).
// - When the listener's connection fails, the instance stops vouching for its snapshot: authentication's
//   changeVersion({ fresh: true }) throws a 503 until it LISTENs again and has reloaded everything.

import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ApiError } from '../../../shared/api/index.js';
import { ChangeListener } from './change-listener.js';
import { isSnapshotTable, SnapshotReplica, type Scope, type SpendTotals } from './replica.js';

export const changesChannel = 'switchyard_changed';
export const appliedChannel = 'switchyard_applied';

/** Held by every snapshot write until it commits: changes then commit, and are delivered, in `changes.seq` order. */
const changesLockKey = 7_420_018;

/** An instance that has not renewed its lease for this long is no longer waited for, and refuses to authenticate. */
export const leaseMs = 3_000;
const leaseRenewalMs = 1_000;

/** PostgreSQL's payload limit is 8000 bytes; a longer change is announced by its table alone. */
const maxPayloadBytes = 7_900;

/** The database's clock in Unix milliseconds: leases are compared on one clock, whatever the instances' say. */
const databaseNowMs = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/** What a notification on switchyard_changed carries (JSON). */
export interface ChangeMessage {
  /** `<table>` or `<table>:<id>`. */
  topic: string;
  /** The change's number in `changes`; none for usage batches and last-used times. */
  seq?: number;
  /** The store that wrote it. */
  origin: string;
  /** A usage batch's totals (topic key_spend_daily). */
  spend?: SpendTotals;
  /** Last-used times by key id (topic api_keys). */
  touched?: Record<string, number>;
}

interface ChangeOptions<T> {
  /** Resolve only once every live instance applied the change. */
  barrier?: boolean;
  /** Whether the work changed anything; when not, the transaction is rolled back and nobody is told. */
  changed?: (result: T) => boolean;
}

export interface SnapshotSyncOptions {
  /** Registers in `instances`, renews a lease and records what it applied (PostgresStoreOptions.instance). */
  instance: boolean;
  reconnectDelayMs?: number;
}

/** The snapshot of one store and the notifications, lease and barrier that keep it current. */
export class SnapshotSync {
  readonly replica = new SnapshotReplica();
  /** Names this store in the notifications it sends. */
  readonly id = randomUUID();
  private readonly pool: pg.Pool;
  private readonly instance: boolean;
  private readonly listener: ChangeListener;
  private version = 0;
  /** True until the first load, and from a lost listener until everything is reloaded. */
  private stale = true;
  /** Local clock: until when this instance's lease holds (instances only). */
  private leaseValidUntil = 0;
  private leaseTimer: NodeJS.Timeout | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  private resyncRetryMs = 100;
  /** Notifications and reloads are applied one at a time, in the order they came. */
  private applying: Promise<void> = Promise.resolve();
  private readonly appliedWaiters = new Set<() => void>();
  private closed = false;

  constructor(url: string, pool: pg.Pool, options: SnapshotSyncOptions) {
    this.pool = pool;
    this.instance = options.instance;
    this.listener = new ChangeListener(
      url,
      {
        notification: (channel, payload) => this.onNotification(channel, payload),
        lost: () => this.markStale(),
        connected: () => this.enqueueResync(),
      },
      { channels: [changesChannel, appliedChannel], firstRetryMs: options.reconnectDelayMs },
    );
  }

  /** LISTENs, then loads the snapshot (so that no change is missed between the two), then keeps the lease. */
  async start(): Promise<void> {
    await this.listener.start();
    // Notifications that arrive during the first load are applied after it, in order.
    const firstLoad = this.resync();
    this.applying = firstLoad.catch(() => undefined);
    await firstLoad;
    if (this.instance) {
      this.leaseTimer = setInterval(() => void this.renewLease(), leaseRenewalMs);
      this.leaseTimer.unref();
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Store.changeVersion: `fresh` throws a 503 while this instance cannot vouch for its copy. */
  changeVersion(options?: { fresh?: boolean }): number {
    if (options?.fresh && !this.vouched()) {
      throw new ApiError(
        503,
        'This gateway instance is catching up with its database; try again in a moment.',
        {},
        { 'retry-after': '1' },
      );
    }
    return this.version;
  }

  /** Last-used times: every instance updates its copy when told, without emptying any cache. */
  async touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    this.replica.keys.touch(lastUsed);
    const message: ChangeMessage = { topic: 'api_keys', origin: this.id, touched: Object.fromEntries(lastUsed) };
    const payload = JSON.stringify(message);
    if (Buffer.byteLength(payload) <= maxPayloadBytes)
      await this.pool.query('SELECT pg_notify($1, $2)', [changesChannel, payload]);
  }

  /** The listening connection's server process id (tests cut it with pg_terminate_backend). */
  listenerBackendPid(): number | undefined {
    return this.listener.backendPid;
  }

  /** Stops listening and renewing; the pool is the store's to end, then the replica is closed. */
  async stop(): Promise<void> {
    this.closed = true;
    clearInterval(this.leaseTimer);
    clearTimeout(this.resyncTimer);
    for (const wake of this.appliedWaiters) wake();
    if (this.instance) await this.pool.query('DELETE FROM instances WHERE id = $1', [this.id]).catch(() => undefined);
    await this.listener.close();
    await this.applying.catch(() => undefined);
  }

  /**
   * Runs a snapshot write as one transaction that announces itself, then reloads what it touched into this
   * instance's copy, and with `barrier` waits until every live instance applied it.
   */
  async change<T>(
    scope: Scope,
    work: (client: pg.ClientBase) => Promise<T>,
    options: ChangeOptions<T> = {},
  ): Promise<T> {
    const committed = await this.transaction(async (client) => {
      // One change at a time: seq order is commit order is delivery order.
      await client.query('SELECT pg_advisory_xact_lock($1)', [changesLockKey]);
      const result = await work(client);
      if (options.changed && !options.changed(result)) return { result, seq: undefined };
      const topic = scope.id === undefined ? scope.table : `${scope.table}:${scope.id}`;
      const { rows } = await client.query<{ seq: number }>(
        `INSERT INTO changes (topic, created_at) VALUES ($1, ${databaseNowMs}) RETURNING seq`,
        [topic],
      );
      const seq = rows[0]!.seq;
      // Only the newest number is ever read (a resync's starting point): keep the table small.
      if (seq % 1_000 === 0) await client.query('DELETE FROM changes WHERE seq <= $1', [seq - 1_000]);
      await this.notify(client, { topic, seq, origin: this.id }, scope.table);
      return { result, seq };
    });
    if (committed.seq === undefined) return committed.result;
    await this.enqueue(() => this.reload(scope));
    if (options.barrier) await this.awaitApplied(committed.seq);
    return committed.result;
  }

  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      try {
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    } catch (error) {
      broken = error as Error;
      throw error;
    } finally {
      // A connection whose ROLLBACK failed is in doubt: closed, not reused.
      client.release(broken && !isDatabaseError(broken) ? broken : undefined);
    }
  }

  /** NOTIFY in the caller's transaction, so it is delivered only if the transaction commits. */
  async notify(client: pg.ClientBase, message: ChangeMessage, wholeTable?: string): Promise<void> {
    let payload = JSON.stringify(message);
    if (Buffer.byteLength(payload) > maxPayloadBytes) {
      // Too long for a payload (a huge id, a batch touching many keys): the whole table is reloaded instead.
      const { spend: _spend, ...rest } = message;
      payload = JSON.stringify({ ...rest, topic: wholeTable ?? message.topic.split(':')[0] });
    }
    await client.query('SELECT pg_notify($1, $2)', [changesChannel, payload]);
  }

  private onNotification(channel: string, payload: string): void {
    if (channel === appliedChannel) {
      for (const wake of this.appliedWaiters) wake();
      return;
    }
    let message: ChangeMessage;
    try {
      message = JSON.parse(payload) as ChangeMessage;
    } catch {
      return; // not one of ours
    }
    void this.enqueue(() => this.apply(message));
  }

  private async apply(message: ChangeMessage): Promise<void> {
    const separator = message.topic.indexOf(':');
    const table = separator < 0 ? message.topic : message.topic.slice(0, separator);
    if (!isSnapshotTable(table)) return;
    const mine = message.origin === this.id;
    if (message.touched) {
      this.replica.keys.touch(new Map(Object.entries(message.touched)));
    } else if (message.spend) {
      this.replica.applySpendTotals(message.spend);
      // This process's own usage is counted in memory already (SpendTracker); others' empties the caches.
      if (!mine) this.version++;
    } else if (table === 'key_spend_daily') {
      await this.reload({ table: 'credit_account' });
      await this.reload({ table });
    } else {
      await this.reload(separator < 0 ? { table } : { table, id: message.topic.slice(separator + 1) });
    }
    if (message.seq !== undefined && this.instance) await this.recordApplied(message.seq);
  }

  private async reload(scope: Scope): Promise<void> {
    const rows = await this.replica.readScope(this.pool, scope);
    this.replica.replaceScope(scope, rows);
    this.version++;
  }

  /** Sets this instance's applied_seq (never back) and wakes writers waiting on the barrier. */
  private async recordApplied(seq: number): Promise<void> {
    await this.listener.query(
      `WITH applied AS (
         UPDATE instances SET applied_seq = greatest(applied_seq, $2) WHERE id = $1 RETURNING applied_seq
       )
       SELECT pg_notify('${appliedChannel}', applied_seq::text) FROM applied`,
      [this.id, seq],
    );
  }

  /** Resolves once no instance with a live lease has yet to apply change `seq`, or after the lease time. */
  private async awaitApplied(seq: number): Promise<void> {
    const deadline = Date.now() + leaseMs;
    for (;;) {
      const woken = new Promise<void>((resolve) => {
        const wake = () => {
          this.appliedWaiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        // A notification can be missed (the listener reconnecting): look again now and then anyway.
        const timer = setTimeout(wake, 50);
        this.appliedWaiters.add(wake);
      });
      const { rows } = await this.pool.query<{ lagging: number }>(
        `SELECT count(*)::int AS lagging FROM instances WHERE applied_seq < $1 AND lease_until > ${databaseNowMs}`,
        [seq],
      );
      if (rows[0]!.lagging === 0 || Date.now() >= deadline || this.closed) return;
      await woken;
    }
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.applying.then(async () => {
      if (this.closed) return;
      try {
        await task();
      } catch {
        // A change that could not be applied leaves the copy behind: stop vouching for it and reload everything.
        this.markStale();
        this.scheduleResync();
      }
    });
    this.applying = run;
    return run;
  }

  markStale(): void {
    if (this.closed) return;
    this.stale = true;
    this.version++;
  }

  vouched(): boolean {
    return !this.stale && !this.closed && (!this.instance || Date.now() < this.leaseValidUntil);
  }

  enqueueResync(): void {
    void this.enqueue(() => this.resync());
  }

  private scheduleResync(): void {
    if (this.closed || this.resyncTimer) return;
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = undefined;
      this.enqueueResync();
    }, this.resyncRetryMs);
    this.resyncTimer.unref();
    this.resyncRetryMs = Math.min(this.resyncRetryMs * 2, 5_000);
  }

  /**
   * Reloads the whole snapshot from one consistent state and records the newest change it contains as applied.
   * An instance registers (applied 0) before it reads, so that a writer committing meanwhile waits for it.
   */
  async resync(): Promise<void> {
    if (!this.listener.listening) return; // the listener's reconnection will ask again
    if (this.instance) {
      // Instances that stopped without deregistering (killed) are forgotten an hour after their lease ran out.
      await this.listener.query(`DELETE FROM instances WHERE lease_until < ${databaseNowMs} - 3600000`, []);
      await this.listener.query(
        `INSERT INTO instances (id, applied_seq, lease_until) VALUES ($1, 0, ${databaseNowMs} + ${leaseMs})
         ON CONFLICT (id) DO UPDATE SET lease_until = excluded.lease_until`,
        [this.id],
      );
    }
    const leaseFrom = Date.now();
    const client = await this.pool.connect();
    let loaded: { rows: Awaited<ReturnType<SnapshotReplica['readAll']>>; seq: number };
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        const rows = await this.replica.readAll(client);
        const { rows: latest } = await client.query<{ seq: number }>(
          'SELECT coalesce(max(seq), 0) AS seq FROM changes',
        );
        loaded = { rows, seq: latest[0]!.seq };
      } finally {
        await client.query('COMMIT');
      }
    } finally {
      client.release();
    }
    this.replica.replaceAll(loaded.rows);
    this.version++;
    if (this.instance) {
      await this.recordApplied(loaded.seq);
      this.leaseValidUntil = leaseFrom + leaseMs;
    }
    this.stale = false;
    this.resyncRetryMs = 100;
  }

  /**
   * Renews the lease on the listening connection: it fails exactly when notifications may be missed. An instance
   * whose lease ran out may have been skipped by a barrier, so it reloads everything before it vouches again.
   */
  async renewLease(): Promise<void> {
    if (this.closed || this.stale) return;
    if (Date.now() >= this.leaseValidUntil) {
      this.markStale();
      this.enqueueResync();
      return;
    }
    const sentAt = Date.now();
    try {
      const { rowCount } = await this.listener.query(
        `UPDATE instances SET lease_until = ${databaseNowMs} + ${leaseMs} WHERE id = $1`,
        [this.id],
      );
      if ((rowCount ?? 0) === 0) throw new Error('this instance’s registration is gone');
      if (!this.stale) this.leaseValidUntil = sentAt + leaseMs;
    } catch {
      this.markStale();
      this.scheduleResync();
    }
  }
}

/** An error the server sent (it has a SQLSTATE): the connection itself is fine. */
function isDatabaseError(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}
