// The gateway's response cache as both engines keep it (response_cache): an answer by the SHA-256 of what makes it
// (never the prompt as the key), until it expires, bounded in entries and bytes with the least recently used
// evicted first. Decision 031.

/** One stored answer. */
export interface CachedResponseRow {
  /** Hex SHA-256 of the key scope and the request's answer-changing fields. */
  key: string;
  /** The answer as the gateway replays it (JSON). */
  body: string;
  createdAt: number;
  expiresAt: number;
}

/** How big the cache may grow; the least recently used entries go first. */
export interface ResponseCacheLimits {
  maxEntries: number;
  maxBytes: number;
}

export interface ResponseCacheStore {
  /** The unexpired entry of `key` (marked used now), or undefined. */
  read(key: string, now: number): Promise<CachedResponseRow | undefined>;
  /** Adds or replaces the entry; drops expired entries and, beyond the limits, the least recently used. */
  write(row: CachedResponseRow, limits: ResponseCacheLimits): Promise<void>;
}

/**
 * How many of the least recently used entries to drop next for the cache to fit `limits` (0 when it fits): the
 * entries beyond the count, else enough entries of the average size to free the bytes beyond the limit. Engines
 * drop that many and ask again, so that a write costs a count over an index, not a sort of the whole table.
 */
export function entriesToEvict(held: { entries: number; bytes: number }, limits: ResponseCacheLimits): number {
  if (held.entries > limits.maxEntries) return held.entries - limits.maxEntries;
  if (held.bytes <= limits.maxBytes || held.entries === 0) return 0;
  return Math.max(1, Math.ceil((held.bytes - limits.maxBytes) / (held.bytes / held.entries)));
}
