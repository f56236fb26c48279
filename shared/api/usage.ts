// One row of the usage log: every request that passed authentication, failed and cancelled ones too.

export const usageCacheResults = ['hit', 'miss', 'bypass'] as const;
export type UsageCacheResult = (typeof usageCacheResults)[number];

export interface UsageRecord {
  /** Generation id (`gen-…`), the same id the caller saw in the response. */
  id: string;
  /** Unix milliseconds when the request arrived. */
  created_at: number;
  key_id: string;
  /** X-Title header. */
  app_title: string | null;
  /** HTTP-Referer header. */
  app_referer: string | null;
  /** The model as requested, `<provider>/<model>`. */
  model: string;
  provider: string | null;
  streamed: boolean;
  /** HTTP status sent to the caller (200 for a stream that failed mid-way; see finish_reason). */
  status: number;
  /** finish_reason, or `cancelled` when the caller went away, or null when no generation happened. */
  finish_reason: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  reasoning_tokens: number;
  /** USD: the upstream's own figure when it reports one, else from the price table; 0 when unpriced. Null only in
   * rows written before pricing existed. The database also keeps it exactly, as whole nano-dollars. */
  cost: number | null;
  /** True when no price was known for the model (and the upstream reported none): cost is 0 but not free. */
  unpriced: boolean;
  /**
   * True when the token counts are Switchyard's own estimate (a tokenizer over the prompt and the text streamed):
   * the caller left a stream before the upstream reported its usage. Absent means false.
   */
  estimated?: boolean;
  /**
   * The tools of the request the answering provider could not run and that were left out of what it was sent (the
   * Responses API's hosted tools: `web_search` on a provider without web search, `file_search`…). Absent means none.
   */
  dropped_tools?: string[];
  /**
   * What the response cache did (decision 031): `hit` answered from it (cost 0, see saved_cost), `miss` asked the
   * upstream and may have stored the answer, `bypass` neither looked nor stored. Absent when the cache is off.
   */
  cache?: UsageCacheResult;
  /** USD a cache hit saved: what the answer cost when the upstream gave it. Absent unless a hit. */
  saved_cost?: number;
  /** Total time until the response ended. */
  latency_ms: number;
  /** Time to the first content byte from upstream; null when none came. */
  ttft_ms: number | null;
  /** A short, secret-free error message for failed requests. */
  error: string | null;
}

/** How usage summaries group rows. Days are UTC calendar days (`YYYY-MM-DD`). */
export const usageGroupings = ['day', 'model', 'app', 'key'] as const;
export type UsageGrouping = (typeof usageGroupings)[number];

export interface UsageSummaryQuery {
  by: UsageGrouping;
  /** Unix milliseconds, inclusive; all rows when omitted. */
  since?: number;
  /** Unix milliseconds, exclusive; up to now when omitted. */
  until?: number;
}

/** One group of a usage summary. */
export interface UsageSummaryRow {
  /** The day, the model (`provider/model`), the app (X-Title, else HTTP-Referer, else empty) or the key id. */
  group: string;
  /** What to show for the group: the key's name for `key` (`name (deleted)` once deleted; `(deleted key)` when it was deleted before names were kept), else the group itself. */
  label: string;
  requests: number;
  /** Rows with an error status, or streams that ended with finish_reason `error`. */
  errors: number;
  /** Requests whose caller went away before the end. */
  cancelled: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  reasoning_tokens: number;
  /** USD, exact to the nano-dollar. */
  cost: number;
  /** Requests whose model had no price. */
  unpriced_requests: number;
}
