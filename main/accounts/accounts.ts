// Credits, per-key rules, rate limits and usage queries: what the gateway asks before every chat request
// (admit), what it records after (through the usage log), and what the account endpoints, the CLI and the UI
// read. Decision 004 explains the money representation, the overspend bound, the windows and the statuses.

import {
  ApiError,
  formatUsd,
  nanosToUsd,
  usdToNanos,
  type ApiKeyDetails,
  type CreatedApiKey,
  type CreditLedgerEntry,
  type CreditsInfo,
  type CreditsStatus,
  type GenerationInfo,
  type KeyRulesChange,
  type KeyStatus,
  type KeyWithUsage,
  type LimitReset,
  type Usage,
  type UsageRecord,
  type UsageSummaryQuery,
  type UsageSummaryRow,
} from '../../shared/api/index.js';
import type { Disposable } from '../../shared/events/index.js';
import type { PriceBook, PricedCost, PriceTarget, TokenPrices } from '../providers/pricing/index.js';
import type { CreditChange, Store } from '../store/index.js';
import type { ApiKeys } from './api-keys.js';
import { modelAllowed } from './key-rules.js';
import { keyStanding, limitReached, limitRemaining, limitResetsAt } from './key-state.js';
import { RateLimiter, rateWindowMs, tokenWaitOf } from './rate-limiter.js';
import { SpendTracker } from './spend-tracker.js';
import type { UsageLog } from './usage-log.js';
import { windowStart } from './usage-windows.js';

export type AccountsStore = Pick<
  Store,
  | 'getCreditAccount'
  | 'changeCredits'
  | 'listCreditLedger'
  | 'keySpendSince'
  | 'usageSummary'
  | 'changeVersion'
  | 'admitRequest'
  | 'recentKeyTokens'
>;

export interface AccountsOptions {
  store: AccountsStore;
  keys: ApiKeys;
  usage: UsageLog;
  prices: PriceBook;
  /** Clock for windows, rate limits and expiry, for tests. */
  now?: () => number;
}

/** The chat request fields admission looks at: every model it may be served by. */
export interface AdmissionRequest {
  model: string;
  models?: string[];
}

/** The largest balance `credits set` accepts, USD. */
export const maxCreditsUsd = 1_000_000_000;

export class Accounts {
  readonly prices: PriceBook;
  private readonly store: AccountsStore;
  private readonly keys: ApiKeys;
  private readonly usage: UsageLog;
  private readonly now: () => number;
  private readonly spend: SpendTracker;
  private readonly limiter: RateLimiter;
  private readonly countingTokens: Disposable;

  constructor(options: AccountsOptions) {
    this.store = options.store;
    this.keys = options.keys;
    this.usage = options.usage;
    this.prices = options.prices;
    this.now = options.now ?? Date.now;
    this.spend = new SpendTracker(options.store, options.usage, this.now);
    this.limiter = new RateLimiter(this.now);
    this.countingTokens = options.usage.onRecord((row) => {
      // A cached answer took no tokens from any upstream (decision 031).
      if (row.cache !== 'hit' && this.keys.rulesOf(row.key_id).tpm !== null) {
        this.limiter.noteTokens(row.key_id, row.prompt_tokens + row.completion_tokens);
      }
    });
  }

  /**
   * Decides whether a chat request may go upstream, from memory (no database write, no read unless another process
   * changed something). Throws ApiError: 403 a model the key may not use, 402 no credits left or the key's spend
   * limit reached, 429 a rate limit (with Retry-After). An admitted request counts against the request rate.
   * On a team server a key's requests-per-minute rule is one window for every instance, kept in the database: then
   * the answer is a promise that rejects the same way (decision 017).
   */
  admit(keyId: string, request: AdmissionRequest): void | Promise<void> {
    const rules = this.keys.rulesOf(keyId);
    for (const model of [request.model, ...(request.models ?? [])]) {
      if (!modelAllowed(rules, model)) {
        throw new ApiError(403, `This API key may not use the model "${model}".`, { model });
      }
    }

    const account = this.spend.creditAccount();
    if (account.limited && account.grantedNanos - account.usedNanos <= 0) {
      const balance = account.grantedNanos - account.usedNanos;
      throw new ApiError(
        402,
        `No credits left (balance ${formatUsd(balance)}). Add some with: switchyard credits add USD`,
        { balance: nanosToUsd(balance) },
      );
    }

    if (rules.limitNanos !== null) {
      const spent = this.spend.keyWindowSpend(keyId, rules.limitReset);
      if (limitReached(rules, spent)) throw this.limitReachedError(rules.limitNanos, rules.limitReset, spent);
    }

    const { rpm, tpm } = rules;
    const sharedRequests = rpm !== null && this.store.admitRequest !== undefined;
    const sharedTokens = tpm !== null && this.store.recentKeyTokens !== undefined;
    if (rpm !== null && !sharedRequests) {
      const wait = this.limiter.requestWait(keyId, rpm);
      if (wait > 0) throw rateLimited(`${rpm} requests`, wait, { requests_per_minute: rpm });
    }
    if (tpm !== null && !sharedTokens) {
      const wait = this.limiter.tokenWait(keyId, tpm);
      if (wait > 0) throw rateLimited(`${tpm} tokens`, wait, { tokens_per_minute: tpm });
    }
    if (!sharedRequests && !sharedTokens) {
      if (rpm !== null) this.limiter.noteRequest(keyId);
      return;
    }
    return this.admitShared(keyId, sharedTokens ? tpm : null, sharedRequests ? rpm : null);
  }

  /**
   * A team server's windows, one for every instance (decision 017): the key's tokens of the last minute from the
   * database's usage rows plus this process's rows not written yet, then its requests, counted in the same statement
   * that decides, so racing instances never admit more than the rule allows.
   */
  private async admitShared(keyId: string, tpm: number | null, rpm: number | null): Promise<void> {
    if (tpm !== null) {
      const now = this.now();
      const since = now - rateWindowMs;
      const stored = await this.store.recentKeyTokens!(keyId, since);
      const storedIds = new Set(stored.map((entry) => entry.id));
      const unwritten = this.usage
        .pending()
        .filter((row) => row.key_id === keyId && row.created_at > since && !storedIds.has(row.id))
        .map((row) => ({ at: row.created_at, tokens: row.prompt_tokens + row.completion_tokens }));
      const entries = [...stored, ...unwritten].sort((a, b) => a.at - b.at);
      const wait = tokenWaitOf(entries, tpm, now);
      if (wait > 0) throw rateLimited(`${tpm} tokens`, wait, { tokens_per_minute: tpm });
    }
    if (rpm !== null) {
      const wait = await this.store.admitRequest!(keyId, rpm, this.now());
      if (wait > 0) throw rateLimited(`${rpm} requests`, wait, { requests_per_minute: rpm });
    }
  }

  /** Whether the key may use `model` (`provider/model`): GET /models lists only those. */
  allowsModel(keyId: string, model: string): boolean {
    return modelAllowed(this.keys.rulesOf(keyId), model);
  }

  /** The price `provider/model` is charged at, as GET /models shows it; null when the price book has none. */
  modelPrice(model: string): TokenPrices | null {
    return this.prices.find({ model, provider: null, upstreamModel: null })?.prices ?? null;
  }

  /** Whether the key may list and delete every key (GET and DELETE /api-keys); without it, only itself. */
  mayManageKeys(keyId: string): boolean {
    return this.keys.rulesOf(keyId).management;
  }

  /** What the key may use through the MCP hub; null when it may not use the hub at all (the default). */
  mayReadMetrics(keyId: string): boolean {
    const rules = this.keys.rulesOf(keyId);
    return rules.management || rules.metrics;
  }

  mcpAccess(keyId: string): string[] | null {
    return this.keys.rulesOf(keyId).allowedMcp;
  }

  /** The key with its rules; undefined for an unknown id. */
  keyDetails(keyId: string): ApiKeyDetails | undefined {
    return this.keys.get(keyId);
  }

  /** A new key (everything allowed but management unless the rules say otherwise); its secret is in `key`. */
  createKey(name: string, rules: KeyRulesChange = {}): Promise<CreatedApiKey & ApiKeyDetails> {
    return this.keys.create(name, rules);
  }

  /** Changes a key's rules, and its name when given. Throws ApiError 404 (unknown key) or 400 (invalid change). */
  updateKey(keyId: string, rules: KeyRulesChange, name?: string): Promise<ApiKeyDetails> {
    return this.keys.update(keyId, rules, name);
  }

  /** Records one request's usage row (through the usage log, which writes it in a batch). */
  record(row: UsageRecord): void {
    this.usage.record(row);
  }

  /** The cost of a request: the upstream's figure, else the price table; 0 and unpriced when neither knows. */
  price(target: PriceTarget, usage: Usage | null): PricedCost {
    return this.prices.costOf(target, usage);
  }

  /** GET /api/v1/key: the calling key's spend, limit and rate limits. */
  keyStatus(keyId: string): KeyStatus {
    const key = this.keys.get(keyId);
    if (!key) throw new ApiError(401, 'Invalid or missing API key.', {}, { 'www-authenticate': 'Bearer' });
    const rules = this.keys.rulesOf(keyId);
    const now = this.now();
    const since = (reset: LimitReset) => nanosToUsd(this.spend.keySpendSince(keyId, windowStart(reset, now)));
    const windowSpend = this.spend.keySpendSince(keyId, windowStart(rules.limitReset, now));
    return {
      label: key.label,
      name: key.name,
      usage: since('never'),
      usage_daily: since('daily'),
      usage_weekly: since('weekly'),
      usage_monthly: since('monthly'),
      limit: key.limit,
      limit_remaining: limitRemaining(rules, windowSpend),
      limit_reset: rules.limitReset === 'never' ? null : rules.limitReset,
      is_free_tier: false,
      is_management_key: rules.management,
      expires_at: key.expires_at,
      rate_limit: { requests: rules.rpm, tokens: rules.tpm, interval: '60s' },
    };
  }

  /** GET /api/v1/credits. total_credits is null when no balance is configured (unlimited). */
  credits(): CreditsInfo {
    const account = this.spend.creditAccount();
    return {
      total_credits: account.limited ? nanosToUsd(account.grantedNanos) : null,
      total_usage: nanosToUsd(account.usedNanos),
    };
  }

  creditsStatus(): CreditsStatus {
    const account = this.spend.creditAccount();
    return {
      limited: account.limited,
      balance: account.limited ? nanosToUsd(account.grantedNanos - account.usedNanos) : null,
      granted: account.limited ? nanosToUsd(account.grantedNanos) : null,
      used: nanosToUsd(account.usedNanos),
    };
  }

  /** Makes the balance `usd` (from unlimited too). Throws ApiError(400) for a negative or absurd amount. */
  async setCredits(usd: number): Promise<CreditsStatus> {
    return this.changeCredits({ action: 'set', balanceNanos: creditAmount(usd, 'The balance'), at: this.now() });
  }

  /** Adds `usd` (> 0) to the balance; on an unlimited account the balance starts from 0. */
  async addCredits(usd: number): Promise<CreditsStatus> {
    const amount = creditAmount(usd, 'The amount to add');
    if (amount === 0) throw new ApiError(400, 'The amount to add must be more than 0.');
    return this.changeCredits({ action: 'add', amountNanos: amount, at: this.now() });
  }

  /** Back to unlimited: no balance, nothing refused for credits. */
  async unsetCredits(): Promise<CreditsStatus> {
    return this.changeCredits({ action: 'unset', at: this.now() });
  }

  /** Every change of the balance, oldest first. */
  async creditLedger(): Promise<CreditLedgerEntry[]> {
    return (await this.store.listCreditLedger()).map((entry) => ({
      id: entry.id,
      created_at: new Date(entry.createdAt).toISOString(),
      action: entry.action,
      amount: nanosToUsd(entry.amountNanos),
      balance_after: entry.balanceNanos === null ? null : nanosToUsd(entry.balanceNanos),
    }));
  }

  /**
   * GET /api/v1/generation: one request's record, or undefined when there is none yet (it is recorded when the
   * response ends) or it belongs to another key and the caller is not a management key.
   */
  async generation(id: string, keyId: string): Promise<GenerationInfo | undefined> {
    const row = await this.usage.get(id);
    if (!row || (row.key_id !== keyId && !this.keys.rulesOf(keyId).management)) return undefined;
    return toGenerationInfo(row);
  }

  /** One request's record for the owner of the data (the UI): any key's; undefined when unknown. */
  async generationById(id: string): Promise<GenerationInfo | undefined> {
    const row = await this.usage.get(id);
    return row && toGenerationInfo(row);
  }

  /** Every key (never its secret) with where it stands now and what it has spent in total, oldest first. */
  async keysWithUsage(): Promise<KeyWithUsage[]> {
    const spent = new Map((await this.usageSummary({ by: 'key' })).map((row) => [row.group, row]));
    const now = this.now();
    return this.keys.list().map((key) => {
      const rules = this.keys.rulesOf(key.id);
      const windowSpent = rules.limitNanos === null ? 0 : this.spend.keyWindowSpend(key.id, rules.limitReset);
      const row = spent.get(key.id);
      return {
        ...key,
        ...keyStanding(rules, windowSpent, now),
        usage: { requests: row?.requests ?? 0, cost: row?.cost ?? 0, unpriced_requests: row?.unpriced_requests ?? 0 },
      };
    });
  }

  /** Usage grouped by UTC day, model, app or key, including rows not written yet. */
  async usageSummary(query: UsageSummaryQuery): Promise<UsageSummaryRow[]> {
    await this.flushUsage();
    const names = query.by === 'key' ? await this.keys.namesById() : null;
    const groups = await this.store.usageSummary({ by: query.by, sinceMs: query.since, untilMs: query.until });
    return groups.map((group) => ({
      group: group.group,
      label: names ? (names.get(group.group) ?? '(deleted key)') : group.group,
      requests: group.requests,
      errors: group.errors,
      cancelled: group.cancelled,
      prompt_tokens: group.promptTokens,
      completion_tokens: group.completionTokens,
      cached_tokens: group.cachedTokens,
      reasoning_tokens: group.reasoningTokens,
      cost: nanosToUsd(group.costNanos),
      unpriced_requests: group.unpricedRequests,
    }));
  }

  /** Individual requests, newest first, from `since` (inclusive) to `until` (exclusive). */
  async usageRows(query: { since?: number; until?: number; limit?: number } = {}): Promise<UsageRecord[]> {
    const until = query.until ?? Number.POSITIVE_INFINITY;
    const rows = (await this.usage.list({ sinceMs: query.since })).filter((row) => row.created_at < until);
    return query.limit === undefined ? rows : rows.slice(0, Math.max(0, query.limit));
  }

  close(): void {
    this.countingTokens.dispose();
    this.spend.close();
  }

  private async changeCredits(change: CreditChange): Promise<CreditsStatus> {
    // Rows still queued here would otherwise be subtracted after a `set`, leaving a balance below the one asked for.
    await this.flushUsage();
    await this.store.changeCredits(change);
    return this.creditsStatus();
  }

  private async flushUsage(): Promise<void> {
    try {
      await this.usage.flush();
    } catch {
      // The rows stay queued and the usage log reports the failure; reads still count them.
    }
  }

  private limitReachedError(limitNanos: number, reset: LimitReset, spentNanos: number): ApiError {
    const resetsAt = limitResetsAt(reset, this.now());
    const when = resetsAt === null ? '' : ` It resets at ${resetsAt}.`;
    return new ApiError(402, `This API key reached its spend limit of ${formatUsd(limitNanos)}.${when}`, {
      limit: nanosToUsd(limitNanos),
      usage: nanosToUsd(spentNanos),
      limit_reset: reset,
      resets_at: resetsAt,
    });
  }
}

function creditAmount(usd: unknown, what: string): number {
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0 || usd > maxCreditsUsd) {
    throw new ApiError(400, `${what} must be a number of USD from 0 to ${maxCreditsUsd}.`);
  }
  return usdToNanos(usd);
}

function rateLimited(limit: string, waitMs: number, metadata: Record<string, unknown>): ApiError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError(
    429,
    `Rate limit of ${limit} per minute reached for this API key; retry in ${seconds} s.`,
    { ...metadata, retry_after_seconds: seconds },
    { 'retry-after': String(seconds) },
  );
}

function toGenerationInfo(row: UsageRecord): GenerationInfo {
  return {
    id: row.id,
    created_at: new Date(row.created_at).toISOString(),
    model: row.model,
    provider_name: row.provider,
    app: row.app_title,
    origin: row.app_referer,
    streamed: row.streamed,
    status: row.status,
    finish_reason: row.finish_reason,
    cancelled: row.finish_reason === 'cancelled',
    tokens_prompt: row.prompt_tokens,
    tokens_completion: row.completion_tokens,
    native_tokens_cached: row.cached_tokens,
    native_tokens_reasoning: row.reasoning_tokens,
    total_cost: row.cost ?? 0,
    unpriced: row.unpriced,
    latency: row.latency_ms,
    time_to_first_token: row.ttft_ms,
    error: row.error,
    dropped_tools: row.dropped_tools ?? [],
  };
}
