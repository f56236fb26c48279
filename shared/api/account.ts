// Credits, per-key status and generations as the HTTP API (OpenRouter's shapes), the CLI and the UI show them.
// Amounts are USD numbers here; the database keeps whole nano-dollars (see money.ts).

import type { LimitReset } from './keys.js';

/** GET /api/v1/credits → `{data: CreditsInfo}`. */
export interface CreditsInfo {
  /** Everything ever granted, in USD; null when no balance is configured (unlimited). */
  total_credits: number | null;
  /** Everything ever spent through the gateway, in USD. */
  total_usage: number;
}

/** The account's balance as the CLI and UI show it. */
export interface CreditsStatus {
  /** False: no balance configured, requests are never refused for credits. */
  limited: boolean;
  /** USD; null when unlimited. May be negative by at most what was in flight when it ran out. */
  balance: number | null;
  /** USD granted in total; null when unlimited. */
  granted: number | null;
  /** USD spent in total. */
  used: number;
}

export type CreditAction = 'set' | 'add' | 'unset';

/** One entry of the credits ledger: every change of the balance, for auditing. */
export interface CreditLedgerEntry {
  id: number;
  /** ISO 8601. */
  created_at: string;
  action: CreditAction;
  /** USD added to the granted total by this change (negative when `set` lowered the balance). */
  amount: number;
  /** USD balance right after the change; null when it made the account unlimited. */
  balance_after: number | null;
}

/** GET /api/v1/key → `{data: KeyStatus}`: the calling key. */
export interface KeyStatus {
  label: string;
  name: string;
  /** USD spent by this key in total. */
  usage: number;
  /** USD spent since 00:00 UTC today, since Monday 00:00 UTC, since the 1st 00:00 UTC. */
  usage_daily: number;
  usage_weekly: number;
  usage_monthly: number;
  /** Spend limit in USD, or null. */
  limit: number | null;
  /** Limit minus the spend of the current window; null without a limit. Negative after an overspend. */
  limit_remaining: number | null;
  /** null when the limit never resets. */
  limit_reset: Exclude<LimitReset, 'never'> | null;
  is_free_tier: false;
  is_management_key: boolean;
  /** ISO 8601 or null. */
  expires_at: string | null;
  rate_limit: {
    /** Requests per interval, or null when unlimited. */
    requests: number | null;
    /** Prompt + completion tokens per interval, or null when unlimited. */
    tokens: number | null;
    interval: '60s';
  };
}

/** GET /api/v1/generation?id= → `{data: GenerationInfo}`: one request's usage record. */
export interface GenerationInfo {
  id: string;
  /** ISO 8601, when the request arrived. */
  created_at: string;
  /** As requested, `<provider>/<model>`. */
  model: string;
  /** The provider that served it, or null when none was reached. */
  provider_name: string | null;
  /** X-Title of the request. */
  app: string | null;
  /** HTTP-Referer of the request. */
  origin: string | null;
  streamed: boolean;
  /** HTTP status sent (200 for a stream that failed mid-way; see finish_reason). */
  status: number;
  finish_reason: string | null;
  cancelled: boolean;
  tokens_prompt: number;
  tokens_completion: number;
  native_tokens_cached: number;
  native_tokens_reasoning: number;
  /** USD. */
  total_cost: number;
  unpriced: boolean;
  /** Milliseconds from arrival to the end of the response. */
  latency: number;
  /** Milliseconds from arrival to the first token; null when none came. */
  time_to_first_token: number | null;
  error: string | null;
  /** The request's tools its provider could not run, left out of what it was sent; empty when none were. */
  dropped_tools: string[];
}

/** A model price, USD per million tokens (what the CLI takes and shows). */
export interface ModelPriceInfo {
  model: string;
  source: 'override' | 'builtin';
  input: number;
  output: number;
  /** null: cached input tokens cost the input price. */
  cache_read: number | null;
  /** null: tokens written to the cache cost the input price. */
  cache_write: number | null;
}
