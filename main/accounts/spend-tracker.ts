// What has been spent, in memory, so that admission checks cost no database read per request. Each figure is the
// database's (committed usage) plus the rows recorded in the usage log but not written yet, plus every row recorded
// since; it is reloaded whenever store.changeVersion() moves (another process granted credits, changed a key or
// wrote its own usage). Amounts are whole nano-dollars.

import { usdToNanos, type LimitReset, type UsageRecord } from '../../shared/api/index.js';
import type { Disposable, Event } from '../../shared/events/index.js';
import type { CreditAccountRow, Store } from '../store/index.js';
import { dayOf, windowStart } from './usage-windows.js';

export type SpendStore = Pick<Store, 'getCreditAccount' | 'keySpendSince' | 'changeVersion'>;

/** The usage log's view of rows not written yet. */
export interface PendingUsage {
  pending(): readonly UsageRecord[];
  onRecord: Event<UsageRecord>;
}

interface KeyWindow {
  reset: LimitReset;
  startMs: number;
  spentNanos: number;
}

export class SpendTracker {
  private readonly store: SpendStore;
  private readonly usage: PendingUsage;
  private readonly now: () => number;
  private readonly counting: Disposable;
  private version: number | undefined;
  private account: CreditAccountRow | null = null;
  private readonly keyWindows = new Map<string, KeyWindow>();

  constructor(store: SpendStore, usage: PendingUsage, now: () => number) {
    this.store = store;
    this.usage = usage;
    this.now = now;
    this.counting = usage.onRecord((row) => this.count(row));
  }

  /** The account's totals, with usage not yet written counted as used. */
  creditAccount(): Readonly<CreditAccountRow> {
    this.refresh();
    if (!this.account) {
      const stored = this.store.getCreditAccount();
      this.account = { ...stored, usedNanos: stored.usedNanos + this.pendingNanos(() => true) };
    }
    return this.account;
  }

  /** What the key spent in its current limit window (see usage-windows.ts). */
  keyWindowSpend(keyId: string, reset: LimitReset): number {
    this.refresh();
    const startMs = windowStart(reset, this.now());
    let window = this.keyWindows.get(keyId);
    if (!window || window.reset !== reset || window.startMs !== startMs) {
      window = { reset, startMs, spentNanos: this.keySpendSince(keyId, startMs) };
      this.keyWindows.set(keyId, window);
    }
    return window.spentNanos;
  }

  /** What the key spent in rows created at `startMs` (a UTC day boundary) or later; read afresh, not cached. */
  keySpendSince(keyId: string, startMs: number): number {
    const stored = this.store.keySpendSince(keyId, dayOf(startMs));
    return stored + this.pendingNanos((row) => row.key_id === keyId && row.created_at >= startMs);
  }

  close(): void {
    this.counting.dispose();
  }

  private refresh(): void {
    const version = this.store.changeVersion();
    if (version === this.version) return;
    this.version = version;
    this.account = null;
    this.keyWindows.clear();
  }

  private count(row: UsageRecord): void {
    const nanos = usdToNanos(row.cost);
    if (nanos === 0) return;
    if (this.account) this.account.usedNanos += nanos;
    const window = this.keyWindows.get(row.key_id);
    if (window && row.created_at >= window.startMs) window.spentNanos += nanos;
  }

  private pendingNanos(include: (row: UsageRecord) => boolean): number {
    let total = 0;
    for (const row of this.usage.pending()) if (include(row)) total += usdToNanos(row.cost);
    return total;
  }
}
