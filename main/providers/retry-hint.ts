// What an adapter knows about a failed upstream call that its ApiError's status hides, for the gateway's retry
// policy (main/gateway/upstream-attempts.ts). Our status answers "whose fault is it" for the caller (an upstream
// 401 becomes our 502); the retry policy needs the upstream's own answer: retrying a rejected key cannot help,
// retrying a 500 may. Kept beside the error rather than in its metadata, so that nothing of it reaches the wire.

export interface RetryHint {
  /** The upstream's own HTTP status, when it answered with one. */
  upstreamStatus?: number;
  /** The upstream's Retry-After header (seconds or an HTTP date), whatever status we answer with. */
  retryAfter?: string;
  /** False when trying the same upstream again cannot help (e.g. it already made us wait for minutes). */
  retryable?: boolean;
}

const hints = new WeakMap<object, RetryHint>();

/** Attaches `hint` to `error` (merged with an earlier hint) and returns the error, for `throw withRetryHint(…)`. */
export function withRetryHint<E extends object>(error: E, hint: RetryHint): E {
  hints.set(error, { ...hints.get(error), ...hint });
  return error;
}

export function retryHintOf(error: unknown): RetryHint | undefined {
  return error !== null && typeof error === 'object' ? hints.get(error) : undefined;
}
