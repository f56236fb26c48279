// Builds the one UsageRecord of a request (shared/api/usage.ts) and hands it to deps.usage. Recording must
// never break a response, so failures are logged and swallowed.

import type { Logger } from 'pino';
import type { Usage, UsageCacheResult, UsageRecord } from '../../../shared/api/index.js';
import type { PricedCost } from '../../providers/index.js';
import type { GatewayUsage } from '../deps.js';
import type { GenerationWatch } from './watch.js';

export interface UsageOutcome {
  status: number;
  finishReason: string | null;
  usage?: Usage | null;
  /** The usage is Switchyard's estimate, not the upstream's report. */
  estimated?: boolean;
  error?: string | null;
}

export class UsageRecorder {
  private readonly startedAt = performance.now();
  private firstTokenAt: number | null = null;
  private recorded = false;
  private priced: { usage: Usage | null; cost: PricedCost | null } | null = null;
  /** Set once the model resolved to a provider. */
  provider: string | null = null;
  /** The `<provider>/<model>` that answered when it was not the requested one (a fallback from `models`). */
  model: string | null = null;
  /** The request's tools the provider could not run, left out of what it was sent (UsageRecord.dropped_tools). */
  droppedTools: readonly string[] = [];
  /** What the response cache did; a hit costs nothing and its price is recorded as saved. */
  cache: UsageCacheResult | null = null;

  constructor(
    private readonly sink: GatewayUsage,
    private readonly logger: Logger,
    private readonly base: Pick<
      UsageRecord,
      'id' | 'created_at' | 'key_id' | 'app_title' | 'app_referer' | 'model' | 'streamed'
    >,
    /** Told of the row once it is written (watch.ts). */
    private readonly watches: readonly GenerationWatch[] = [],
  ) {}

  /** Time to first token: the first content, reasoning or tool-call delta from the upstream. */
  markFirstToken(): void {
    this.firstTokenAt ??= performance.now();
  }

  /**
   * Sets `usage.cost` (USD) where the caller sees it, the final chunk or the completion (decision 004): the
   * upstream's figure, else the price table's, 0 for an unpriced model. Returns `usage`.
   */
  addCost<U extends Usage | null>(usage: U): U {
    const priced = this.costOf(usage);
    if (usage && priced) usage.cost = this.cache === 'hit' ? 0 : priced.cost;
    return usage;
  }

  record(outcome: UsageOutcome): void {
    if (this.recorded) return;
    this.recorded = true;
    const usage = outcome.usage ?? null;
    const priced = this.costOf(usage);
    const { base } = this;
    // Every field written out (no spreads): one object shape for every row, built without copying `base`.
    const row: UsageRecord = {
      id: base.id,
      created_at: base.created_at,
      key_id: base.key_id,
      app_title: base.app_title,
      app_referer: base.app_referer,
      model: this.model ?? base.model,
      provider: this.provider,
      streamed: base.streamed,
      status: outcome.status,
      finish_reason: outcome.finishReason,
      prompt_tokens: usage?.prompt_tokens ?? 0,
      completion_tokens: usage?.completion_tokens ?? 0,
      cached_tokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
      reasoning_tokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
      cost: priced ? priced.cost : (usage?.cost ?? null),
      unpriced: priced ? priced.unpriced : usage?.cost == null,
      latency_ms: Math.round(performance.now() - this.startedAt),
      ttft_ms: this.firstTokenAt === null ? null : Math.round(this.firstTokenAt - this.startedAt),
      error: outcome.error ? outcome.error.slice(0, 500) : null,
    };
    if (outcome.estimated) row.estimated = true;
    if (this.droppedTools.length > 0) row.dropped_tools = [...this.droppedTools];
    if (this.cache) row.cache = this.cache;
    if (this.cache === 'hit') {
      row.saved_cost = row.cost ?? 0;
      row.cost = 0;
    }
    try {
      this.sink.record(row);
    } catch (error) {
      this.logger.error({ err: (error as Error).message, generation: row.id }, 'recording usage failed');
    }
    for (const watch of this.watches) {
      try {
        watch.ended?.(row);
      } catch (error) {
        this.logger.error({ err: (error as Error).message, generation: row.id }, 'a generation watcher failed');
      }
    }
  }

  /** Priced once per usage object: after addCost() has set usage.cost it must not be taken for the upstream's. */
  private costOf(usage: Usage | null): PricedCost | null {
    if (!this.sink.price) return null;
    if (this.priced && this.priced.usage === usage) return this.priced.cost;
    let cost: PricedCost | null = null;
    try {
      const target = { model: this.model ?? this.base.model, provider: this.provider, upstreamModel: null };
      cost = this.sink.price(target, usage);
    } catch (error) {
      this.logger.error({ err: (error as Error).message, generation: this.base.id }, 'pricing usage failed');
    }
    this.priced = { usage, cost };
    return cost;
  }
}
