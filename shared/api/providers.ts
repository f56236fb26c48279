// Upstream providers as configured by the user. Their secrets live in the OS keychain, never here.

export const providerKinds = ['openai', 'anthropic', 'google'] as const;
export type ProviderKind = (typeof providerKinds)[number];

/**
 * Where a provider comes from: `configured` by the user (database + keychain), the `environment` of the gateway's
 * process (OPENAI_API_KEY…, in memory only), or a `local` server found running (Ollama, LM Studio).
 */
export const providerOrigins = ['configured', 'environment', 'local'] as const;
export type ProviderOrigin = (typeof providerOrigins)[number];

/**
 * How long the gateway waits for one provider, in seconds; a field left out takes the default. A slow local
 * server loading a large model may need longer headers timeouts; a provider that hangs, shorter ones.
 */
export interface ProviderTimeouts {
  /** To the response headers of a whole (non-streamed) answer, sent once it is generated. Default 600. */
  headers?: number;
  /** To the response headers of a streamed answer. Default 120. */
  stream_headers?: number;
  /** Between two complete stream events (keep-alive comments count), or for the body of a whole answer. Default 300. */
  idle?: number;
}

export const providerTimeoutFields = ['headers', 'stream_headers', 'idle'] as const;

/**
 * Cooldowns of a provider's targets (docs/decisions/030-cooldowns.md); a field left out takes the default. After
 * `after` failures that count (429, 5xx, timeouts, refused connections) within 60 s a target is cooled down for
 * `seconds`, doubling while it keeps failing, up to 10 minutes.
 */
export interface ProviderCooldown {
  /** Failures that cool a target down; 0 turns cooldowns off for the provider. Default 3. */
  after?: number;
  /** The first cooldown, in seconds. Default 30. */
  seconds?: number;
}

/** The cooldown settings of a provider that sets none; `windowSeconds` and `maxSeconds` are not per provider. */
export const defaultProviderCooldown = Object.freeze({ after: 3, seconds: 30, windowSeconds: 60, maxSeconds: 600 });

/** A provider's cooldown settings over the defaults; null when it turned cooldowns off (`after: 0`). */
export function effectiveCooldown(cooldown: ProviderCooldown | undefined): Required<ProviderCooldown> | null {
  if (cooldown?.after === 0) return null;
  return {
    after: cooldown?.after ?? defaultProviderCooldown.after,
    seconds: cooldown?.seconds ?? defaultProviderCooldown.seconds,
  };
}

export const targetHealthStates = ['healthy', 'cooling', 'trial'] as const;
export type TargetHealthState = (typeof targetHealthStates)[number];

/** One target's health as the CLI and the Providers screen show it. */
export interface TargetHealthInfo {
  /** `<provider>/<model>`. */
  model: string;
  provider: string;
  /** `trial`: the cooldown ended and the next request is the one trial. */
  state: TargetHealthState;
  /** ISO 8601: when the cooldown ends (cooling only), else null. */
  until: string | null;
}

export interface ProviderInfo {
  /** The `<provider>` part of `<provider>/<model>`: lowercase letters, digits, `-` and `_`. */
  id: string;
  kind: ProviderKind;
  base_url: string;
  /** Whether a secret is stored for it (the secret itself never leaves main). */
  has_api_key: boolean;
  /**
   * The last characters of the stored key (`…` + these is how the UI shows it), to recognise which key is stored;
   * absent when there is no key, the key is too short to show any of it, or it was stored before tails were kept.
   */
  api_key_tail?: string;
  /** ISO 8601. */
  created_at: string;
  /** Set by the registry; absent on rows read straight from the database (which are `configured`). */
  source?: ProviderOrigin;
  /** Limits that differ from the defaults. */
  timeouts?: ProviderTimeouts;
  /** Cooldown settings that differ from the defaults. */
  cooldown?: ProviderCooldown;
  /** Set on lists: the provider's targets that are cooling down or waiting for their trial; the others are healthy. */
  targets?: TargetHealthInfo[];
}

/** What "test the connection" found: the provider answered its model list, or why it did not. */
export interface ProviderTestResult {
  ok: boolean;
  /** For people: "Connected: 12 models." or the upstream's error as the gateway maps it. */
  message: string;
  /** How many models it listed; null when it failed. */
  modelCount: number | null;
}

/** A target's state in words, as `providers list` and the Providers screen say it (times in local HH:MM:SS). */
export function describeTargetHealth(target: Pick<TargetHealthInfo, 'state' | 'until'>): string {
  if (target.state === 'cooling' && target.until !== null) {
    return `cooling down until ${new Date(target.until).toLocaleTimeString('en-GB', { hour12: false })}`;
  }
  return target.state === 'healthy' ? 'healthy' : 'trial';
}
