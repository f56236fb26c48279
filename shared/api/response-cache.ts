// The response cache's setting as a person chooses it (decision 031), for `serve`'s flags, the bridge and the
// Gateway screen alike: how long answers are served from the cache (0: off) and whether keys share them.

export const responseCacheScopes = ['key', 'all'] as const;
/** `key`: answers kept per gateway key; `all`: one answer for every key, so keys see each other's answers. */
export type ResponseCacheScope = (typeof responseCacheScopes)[number];

/** The longest TTL accepted: a year. */
export const maxCacheTtlSeconds = 31_536_000;

export interface ResponseCacheChoice {
  /** How long an answer is served from the cache; 0 turns the cache off. */
  ttlSeconds: number;
  scope: ResponseCacheScope;
}

/** What a data folder or team database without a stored setting has: off, per key. */
export const defaultResponseCacheChoice: ResponseCacheChoice = { ttlSeconds: 0, scope: 'key' };

/** The stored setting, what the gateway runs with, and which of its fields a `serve` flag overrides. */
export interface ResponseCacheSettingView {
  stored: ResponseCacheChoice;
  effective: ResponseCacheChoice;
  overridden: { ttlSeconds: boolean; scope: boolean };
}

/** Whole seconds from 0 to a year: else what is wrong, in words for the person who typed it. */
export function cacheTtlProblem(ttlSeconds: number): string | null {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 0 || ttlSeconds > maxCacheTtlSeconds) {
    return `Enter whole seconds from 0 (off) to ${maxCacheTtlSeconds} (a year).`;
  }
  return null;
}
