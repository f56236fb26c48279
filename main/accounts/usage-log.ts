// The usage log: the gateway records one row per request without touching the database; rows are written
// in batches, one transaction each, off the request's path, one batch at a time.

import type { UsageRecord } from '../../shared/api/index.js';
import { Emitter, type Event } from '../../shared/events/index.js';
import type { Store, UsageQuery } from '../store/index.js';

export type UsageStore = Pick<Store, 'insertUsage' | 'isRowRejection' | 'getUsage' | 'listUsage'>;

export interface UsageLogOptions {
  /** Write as soon as this many rows are queued. */
  batchSize?: number;
  /** Write this long after the first queued row at the latest. */
  flushDelayMs?: number;
  /** Wait this long before retrying after a failed write. */
  retryDelayMs?: number;
  /** Past this many queued rows (the database has been failing for a long time) the oldest are dropped. */
  maxQueued?: number;
  /** Receives failed writes, rows rejected by the database and dropped rows. */
  onError?: (error: unknown) => void;
}

/** A row the database refused (for example a missing model): it is dropped so the rows behind it are written. */
export class UsageRowRejectedError extends Error {
  readonly rowId: unknown;

  constructor(rowId: unknown, cause: unknown) {
    super(`usage row ${JSON.stringify(rowId)} was rejected by the database and dropped`, { cause });
    this.name = 'UsageRowRejectedError';
    this.rowId = rowId;
  }
}

export class UsageLog {
  private readonly store: UsageStore;
  private readonly batchSize: number;
  private readonly flushDelayMs: number;
  private readonly retryDelayMs: number;
  private readonly maxQueued: number;
  private readonly onError: (error: unknown) => void;
  private queue: UsageRecord[] = [];
  /** The rows of the write in progress that are not written yet. */
  private inFlight: UsageRecord[] = [];
  private writing: Promise<void> | undefined;
  private readonly recorded: Emitter<UsageRecord>;
  /** Each row as it is recorded (before it is written); a listener's error goes to onError. */
  readonly onRecord: Event<UsageRecord>;
  private flushTimer: NodeJS.Timeout | undefined;
  /** After a failed write, wait for the retry timer instead of retrying on every record(). */
  private failing = false;
  private closed = false;

  constructor(store: UsageStore, options: UsageLogOptions = {}) {
    this.store = store;
    this.batchSize = options.batchSize ?? 200;
    this.flushDelayMs = options.flushDelayMs ?? 100;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.maxQueued = options.maxQueued ?? 100_000;
    this.onError = options.onError ?? ((error) => console.error('switchyard: could not write the usage log', error));
    this.recorded = new Emitter({ onListenerError: (error) => this.onError(error) });
    this.onRecord = this.recorded.event;
  }

  /** Queues a row. Never throws: write failures go to onError and the rows are kept for the next try. */
  record(row: UsageRecord): void {
    this.queue.push(row);
    this.dropOverflow();
    this.recorded.fire(row);
    // After close() there is no timer any more, so write at once. During a write, its end starts the next one.
    if (this.writing && !this.closed) return;
    if (this.closed || (this.queue.length >= this.batchSize && !this.failing)) this.flushReportingErrors();
    else this.scheduleFlush(this.flushDelayMs);
  }

  /**
   * Writes every queued row in one transaction (after the write in progress, if any). Rejects when the database
   * cannot be written; the rows stay queued and a retry is scheduled. Rows the database rejects are dropped and
   * reported to onError.
   */
  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    // One write at a time: the rows of the one in progress are not queued any more, and order is kept.
    while (this.writing) await this.writing.catch(() => undefined);
    if (this.queue.length === 0) return;
    this.inFlight = this.queue;
    this.queue = [];
    this.writing = this.writeInFlight();
    try {
      await this.writing;
      this.failing = false;
    } catch (error) {
      // What was not written goes back to the front of the queue, before what was recorded meanwhile.
      this.queue = [...this.inFlight, ...this.queue];
      this.failing = true;
      this.scheduleFlush(this.retryDelayMs);
      throw error;
    } finally {
      this.inFlight = [];
      this.writing = undefined;
    }
    if (this.queue.length >= this.batchSize) this.flushReportingErrors();
    else if (this.queue.length > 0) this.scheduleFlush(this.flushDelayMs);
  }

  /** The rows recorded but not written yet (those being written included), oldest first. */
  pending(): readonly UsageRecord[] {
    return this.inFlight.length === 0 ? this.queue : [...this.inFlight, ...this.queue];
  }

  /** Includes rows not written yet. */
  async get(id: string): Promise<UsageRecord | undefined> {
    return (await this.store.getUsage(id)) ?? this.pending().find((row) => row.id === id);
  }

  /** Newest first; includes rows not written yet. */
  async list(query: UsageQuery = {}): Promise<UsageRecord[]> {
    const stored = await this.store.listUsage(query);
    const sinceMs = query.sinceMs ?? Number.NEGATIVE_INFINITY;
    const pending = this.pending().filter((row) => row.created_at >= sinceMs);
    if (pending.length === 0) return stored;
    const storedIds = new Set(stored.map((row) => row.id));
    const merged = [...stored, ...pending.filter((row) => !storedIds.has(row.id))].sort(newestFirst);
    return query.limit === undefined ? merged : merged.slice(0, Math.max(0, Math.floor(query.limit)));
  }

  /** Stops the timer and writes the queue (rejects if that fails; the rows stay queued). Safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  /** Writes inFlight in one transaction, or row by row when the database rejects a row; removes what it wrote. */
  private async writeInFlight(): Promise<void> {
    try {
      await this.store.insertUsage(this.inFlight);
      this.inFlight = [];
      return;
    } catch (error) {
      if (!this.store.isRowRejection(error)) throw error;
    }
    while (this.inFlight.length > 0) {
      const row = this.inFlight[0]!;
      try {
        await this.store.insertUsage([row]);
      } catch (error) {
        if (!this.store.isRowRejection(error)) throw error;
        this.onError(new UsageRowRejectedError(row.id, error));
      }
      this.inFlight = this.inFlight.slice(1);
    }
  }

  private flushReportingErrors(): void {
    this.flush().catch((error: unknown) => this.onError(error));
  }

  private scheduleFlush(delayMs: number): void {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setTimeout(() => this.flushReportingErrors(), delayMs);
    // Pending rows must not keep the process alive; the owner's close() writes them.
    this.flushTimer.unref();
  }

  private dropOverflow(): void {
    const excess = this.queue.length - this.maxQueued;
    if (excess <= 0) return;
    this.queue.splice(0, excess);
    this.onError(new Error(`usage log: dropped the ${excess} oldest unwritten row(s); the database keeps failing`));
  }
}

function newestFirst(a: UsageRecord, b: UsageRecord): number {
  return b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}
