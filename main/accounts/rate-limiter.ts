// Per-key rate limits over a sliding 60-second window, in memory: each gateway process counts its own requests
// (decision 004). Requests are counted when admitted; tokens (prompt + completion) when a request's usage is
// recorded, so a request is refused once the last minute's tokens reached the limit.

/** The window of every per-minute limit, in this process and in a team server's shared ones. */
export const rateWindowMs = 60_000;

export interface TokenEntry {
  at: number;
  tokens: number;
}

/**
 * Milliseconds until the tokens of `entries` (the last minute's, oldest first) fall under `perMinute`; 0 when they are
 * under it now. One rule for the process's own window and a team server's shared one.
 */
export function tokenWaitOf(entries: readonly TokenEntry[], perMinute: number, now: number): number {
  let total = entries.reduce((sum, entry) => sum + entry.tokens, 0);
  for (const entry of entries) {
    if (total < perMinute) break;
    total -= entry.tokens;
    if (total < perMinute) return entry.at + rateWindowMs - now;
  }
  return 0;
}

export class RateLimiter {
  private readonly requests = new Map<string, number[]>();
  private readonly tokens = new Map<string, TokenEntry[]>();

  constructor(private readonly now: () => number) {}

  /** Milliseconds until one more request fits under `perMinute`; 0 when it fits now. */
  requestWait(keyId: string, perMinute: number): number {
    const times = this.recent(this.requests, keyId, (time) => time);
    if (times.length < perMinute) return 0;
    return times[times.length - perMinute]! + rateWindowMs - this.now();
  }

  /** Milliseconds until the last minute's tokens fall under `perMinute`; 0 when they are under it now. */
  tokenWait(keyId: string, perMinute: number): number {
    return tokenWaitOf(
      this.recent(this.tokens, keyId, (entry) => entry.at),
      perMinute,
      this.now(),
    );
  }

  noteRequest(keyId: string): void {
    this.entriesOf(this.requests, keyId).push(this.now());
  }

  noteTokens(keyId: string, tokens: number): void {
    if (tokens > 0) this.entriesOf(this.tokens, keyId).push({ at: this.now(), tokens });
  }

  private entriesOf<Entry>(map: Map<string, Entry[]>, keyId: string): Entry[] {
    let entries = map.get(keyId);
    if (!entries) {
      entries = [];
      map.set(keyId, entries);
    }
    return entries;
  }

  /** The key's entries of the last minute, oldest first (older ones are dropped). */
  private recent<Entry>(map: Map<string, Entry[]>, keyId: string, timeOf: (entry: Entry) => number): Entry[] {
    const entries = map.get(keyId);
    if (!entries) return [];
    const cutoff = this.now() - rateWindowMs;
    let expired = 0;
    while (expired < entries.length && timeOf(entries[expired]!) <= cutoff) expired++;
    if (expired > 0) entries.splice(0, expired);
    if (entries.length === 0) map.delete(keyId);
    return entries;
  }
}
