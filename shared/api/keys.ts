// Gateway API keys as the HTTP API, the CLI and the UI show them. The secret appears only in CreatedApiKey.

export interface ApiKeyInfo {
  /** Public identifier, used in DELETE /api-keys/{id}. */
  id: string;
  name: string;
  /** A masked form of the secret, enough to recognise it (e.g. `sk-sy-v1-3f2…9ab`). */
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
}

/** A key with its rules, as listings show it. */
export interface ApiKeyDetails extends ApiKeyInfo, KeyRules {}

/** A change of rules: absent fields stay as they are. */
export type KeyRulesChange = Partial<KeyRules>;

/** A key as the UI lists it: its rules and what it has spent in total. */
export interface KeyWithUsage extends ApiKeyDetails {
  usage: {
    requests: number;
    /** USD. */
    cost: number;
  };
}
