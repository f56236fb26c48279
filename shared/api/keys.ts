// Gateway API keys as the HTTP API, the CLI and the UI show them. The secret appears only in CreatedApiKey.

import { formatUsd, usdToNanos } from './money.js';

export interface ApiKeyInfo {
  /** Public identifier, used in DELETE /api-keys/{id}. */
  id: string;
  name: string;
  /** A masked form of the secret, enough to recognise it: its prefix and last four characters (`sk-sy-v1-…x7Qa`). */
  label: string;
  /** ISO 8601. */
  created_at: string;
  /** ISO 8601, or null when never used. */
  last_used_at: string | null;
}

export interface CreatedApiKey extends ApiKeyInfo {
  /** The secret. Shown once, never stored in clear. */
  key: string;
}

/** When a key's spend limit starts over: at 00:00 UTC every day, every Monday, on the 1st of the month, or never. */
export const limitResets = ['never', 'daily', 'weekly', 'monthly'] as const;
export type LimitReset = (typeof limitResets)[number];

/** What a key may do. Keys without rules (created before rules existed) have the defaults: everything allowed. */
export interface KeyRules {
  /** Spend limit in USD for the current reset window; null = no limit. Reached → 402. */
  limit: number | null;
  limit_reset: LimitReset;
  /** `provider/model` or `provider/*` patterns; null = every model (unless allowed_providers narrows it). */
  allowed_models: string[] | null;
  /** Provider ids; null = every provider (unless allowed_models narrows it). */
  allowed_providers: string[] | null;
  /** Lists and deletes every key through GET and DELETE /api-keys; without it a key sees and deletes only itself. */
  management: boolean;
  /** ISO 8601; after it the key gets 401. Null = never expires. */
  expires_at: string | null;
  /** A disabled key gets 401 until enabled again. */
  disabled: boolean;
  /** Chat requests per minute (sliding 60 s window, per gateway process); null = unlimited. */
  requests_per_minute: number | null;
  /** Prompt + completion tokens per minute (same window); null = unlimited. */
  tokens_per_minute: number | null;
  /**
   * What the key may use through the MCP hub (`/mcp`): server names (every tool, resource and prompt of it),
   * `server__tool` names (that tool only), or `*` (every enabled server). Null = nothing: a key reaches the
   * user's MCP servers only when given this right.
   */
  allowed_mcp: string[] | null;
  /** Reads the gateway's Prometheus metrics (GET /metrics); a management key may without it. */
  metrics: boolean;
}

/** A key with its rules, as listings show it. */
export interface ApiKeyDetails extends ApiKeyInfo, KeyRules {}

/** A change of rules: absent fields stay as they are. */
export type KeyRulesChange = Partial<KeyRules>;

/**
 * Whether a key works right now, in the order the gateway checks: a disabled or expired key gets 401, a key that
 * reached its spend limit 402 until the limit's window starts over.
 */
export const keyStates = ['active', 'disabled', 'expired', 'limit_reached'] as const;
export type KeyState = (typeof keyStates)[number];

/** Where a key stands when it is listed, computed by main (accounts) at its clock; the CLI and the UI only show it. */
export interface KeyStanding {
  state: KeyState;
  /** USD left of the spend limit in the current window; null without a limit. Negative after an overspend. */
  limit_remaining: number | null;
  /** ISO 8601: when the current window ends and the limit starts over; null without a limit or when it never resets. */
  limit_resets_at: string | null;
}

/** A key as the UI lists it: its rules, where it stands, and what it has spent in total. */
export interface KeyWithUsage extends ApiKeyDetails, KeyStanding {
  usage: {
    requests: number;
    /** USD. */
    cost: number;
    /** Requests whose model had no price: their cost is unknown, not zero. */
    unpriced_requests: number;
  };
}

/** A key's spend limit in a few words, for lists: `none`, `$5.00`, `$5.00 weekly`. */
export function describeLimit(key: Pick<KeyRules, 'limit' | 'limit_reset'>): string {
  if (key.limit === null) return 'none';
  const amount = formatUsd(usdToNanos(key.limit));
  return key.limit_reset === 'never' ? amount : `${amount} ${key.limit_reset}`;
}

/** Which models a key may call, for lists: `all models`, `openai/gpt-4o,anthropic/*`. */
export function describeAccess(key: Pick<KeyRules, 'allowed_models' | 'allowed_providers'>): string {
  const parts = [];
  if (key.allowed_models) parts.push(key.allowed_models.join(','));
  if (key.allowed_providers) parts.push(key.allowed_providers.map((id) => `${id}/*`).join(','));
  return parts.length === 0 ? 'all models' : parts.join(',');
}

/** A key's rate limits, for lists: `unlimited`, `60 rpm 10000 tpm`. */
export function describeRate(key: Pick<KeyRules, 'requests_per_minute' | 'tokens_per_minute'>): string {
  const parts = [];
  if (key.requests_per_minute !== null) parts.push(`${key.requests_per_minute} rpm`);
  if (key.tokens_per_minute !== null) parts.push(`${key.tokens_per_minute} tpm`);
  return parts.length === 0 ? 'unlimited' : parts.join(' ');
}

/** A key state as people read it: `limit reached` for limit_reached. */
export function describeKeyState(state: KeyState): string {
  return state.replace('_', ' ');
}
