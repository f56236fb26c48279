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
 * How many of the least recently used entries to drop for the cache to fit `limits` (0 when it fits). Past a limit
 * it frees a sixty-fourth of it more (nothing more below 64 entries), so that the writes that follow find room without counting again.
 */
export function entriesToEvict(held: { entries: number; bytes: number }, limits: ResponseCacheLimits): number {
  if (held.entries > limits.maxEntries) return held.entries - limits.maxEntries + Math.floor(limits.maxEntries / 64);
  if (held.bytes <= limits.maxBytes || held.entries === 0) return 0;
  const average = held.bytes / held.entries;
  return Math.max(1, Math.ceil((held.bytes - limits.maxBytes + Math.floor(limits.maxBytes / 64)) / average));
}

/**
 * When a write must count what the cache holds (a count over an index, the one cost of a write that grows with the
 * cache): when what this process wrote since the last count may have filled the room left then, and at least
 * every 256 writes, for what other processes wrote meanwhile. Between counts the cache may hold a little more
 * than its limits: what other processes wrote since their own last count.
 */
export class EvictionSchedule {
  private writes = Number.POSITIVE_INFINITY;
  private roomEntries = 0;
  private roomBytes = 0;

  /** Notes a write of `bytes`; true when the cache must be counted (and trimmed) after it. */
  due(bytes: number): boolean {
    this.writes += 1;
    this.roomEntries -= 1;
    this.roomBytes -= bytes;
    return this.writes >= 256 || this.roomEntries < 0 || this.roomBytes < 0;
  }

  /** After a count and its evictions: the cache holds `held`. */
  counted(held: { entries: number; bytes: number }, limits: ResponseCacheLimits): void {
    this.writes = 0;
    this.roomEntries = limits.maxEntries - held.entries;
    this.roomBytes = limits.maxBytes - held.bytes;
  }
}
