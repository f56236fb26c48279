// One row of the usage log: every request that passed authentication, failed and cancelled ones too.

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
  /** USD; null until pricing exists for the model. */
  cost: number | null;
  /** Total time until the response ended. */
  latency_ms: number;
  /** Time to the first content byte from upstream; null when none came. */
  ttft_ms: number | null;
  /** A short, secret-free error message for failed requests. */
  error: string | null;
}
