// Getting an answer started: the request's `model`, then each of its `models` in order (OpenRouter's fallback
// convention), each retried with exponential backoff and jitter when the failure is one that passes (429, 408,
// 5xx, a lost connection). Everything here happens before the first byte of an answer reached us: once a stream
// has begun, its failures travel inside it and nothing is retried. The decisions are pure functions; the loop
// only sequences them. See docs/decisions/005-retries-and-fallbacks.md.

import type { Logger } from 'pino';
import { ApiError, type ChatRequest } from '../../../shared/api/index.js';
import {
  isRetryableStatus,
  parseRetryAfter,
  UpstreamError,
  type ProviderAdapter,
  type StreamPart,
  type UpstreamTarget,
  splitModelId,
  type ResolvedModel,
} from '../../providers/index.js';

export { parseRetryAfter };

export interface RetryOptions {
  /** Extra attempts of one model after its first failed one. Default 2. */
  maxRetries?: number;
  /** Backoff before the first retry; it doubles for each further retry (then jitter takes up to half off). Default 500 ms. */
  baseDelayMs?: number;
  /** Longest computed backoff. Default 8 s. */
  maxDelayMs?: number;
  /** An upstream's Retry-After up to this long is honoured; a longer one moves on to the next model. Default 10 s. */
  maxRetryAfterMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 10_000,
};

export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  const policy = { ...defaultRetryPolicy };
  for (const key of Object.keys(policy) as (keyof RetryPolicy)[]) {
    const value = options[key];
    if (value !== undefined && Number.isFinite(value) && value >= 0) policy[key] = value;
  }
  return policy;
}

/** The models to try, in order: `model`, then `models` without repeats. Throws ApiError(400) for a malformed id. */
export function candidateModels(request: Pick<ChatRequest, 'model' | 'models'>): string[] {
  const models = [...new Set([request.model, ...(request.models ?? [])])];
  for (const model of models) splitModelId(model);
  return models;
}

/**
 * Whether to try the same model again after its `attempt`-th failed attempt (1 for the first). An upstream's
 * failure says so itself (UpstreamError.retryable: judged by the upstream's own status, so that a rejected key,
 * our 502, never passes; false for what asking again cannot mend). Other ApiErrors pass for 408, 429 and 5xx;
 * errors that are not ApiErrors (bugs) never do.
 */
export function shouldRetry(error: unknown, attempt: number, policy: RetryPolicy = defaultRetryPolicy): boolean {
  if (attempt > policy.maxRetries) return false;
  if (error instanceof UpstreamError) return error.retryable;
  return error instanceof ApiError && isRetryableStatus(error.status);
}

/** The wait an upstream asked for with a failure, in ms; null when it asked for none. */
export function retryAfterOf(error: unknown, now: number): number | null {
  if (!(error instanceof ApiError)) return null;
  const retryAfter = error instanceof UpstreamError ? error.retryAfter : undefined;
  return parseRetryAfter(retryAfter ?? error.headers['retry-after'], now);
}

/**
 * How long to wait before retry number `attempt` (1 for the first retry): the upstream's Retry-After when it gave
 * one (null, i.e. do not wait for this model, when that is longer than `maxRetryAfterMs`), else
 * `baseDelayMs × 2^(attempt−1)` capped at `maxDelayMs`, of which jitter takes off up to half so that callers
 * failing together do not come back together.
 */
export function backoffDelay(
  attempt: number,
  retryAfterMs: number | null,
  policy: RetryPolicy = defaultRetryPolicy,
  random: () => number = Math.random,
): number | null {
  if (retryAfterMs !== null) return retryAfterMs > policy.maxRetryAfterMs ? null : retryAfterMs;
  const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(delay - (delay / 2) * random());
}

/** One failed attempt, as listed in `error.metadata.attempts` (messages are the scrubbed ones callers see). */
export interface AttemptRecord {
  model: string;
  status: number;
  message: string;
}

export interface Answered<T> {
  /** `<provider>/<model>` of the candidate that answered. */
  model: string;
  resolved: ResolvedModel;
  value: T;
  /** The attempts that failed before it. */
  failed: AttemptRecord[];
}

export interface AttemptPlan {
  models: string[];
  resolve(model: string): Promise<ResolvedModel>;
  /** The caller's signal: once it aborts, no further attempt starts and the loop rejects with its reason. */
  signal: AbortSignal;
  policy: RetryPolicy;
  logger: Logger;
  /** Cooldowns: a candidate cooling down is skipped as failed with 503, and nobody waits on it. */
  targetHealth?: { refusedUntil(model: string, now: number): number | null };
  /** For tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function recordOf(model: string, error: unknown): AttemptRecord {
  if (error instanceof ApiError) return { model, status: error.status, message: error.message };
  return { model, status: 500, message: 'Internal error' };
}

/** A candidate skipped because it cools down: 503, with the wait before it is tried again as Retry-After. */
function coolingDown(model: string, until: number, now: number): ApiError {
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  return new ApiError(
    503,
    `${model} is cooling down after repeated failures; it is tried again in ${seconds} s.`,
    {},
    {
      'retry-after': String(seconds),
    },
  );
}

/**
 * The error for a request whose every attempt failed: the last one's status, message and headers; with more
 * than one attempt, `metadata.attempts` lists them and `x-should-retry: false` tells SDKs that honour it (openai,
 * anthropic) not to multiply our retries by theirs.
 */
export function exhaustedError(last: unknown, attempts: AttemptRecord[]): unknown {
  if (!(last instanceof ApiError) || attempts.length <= 1) return last;
  return last.withDetails({ attempts }, { 'x-should-retry': 'false' });
}

/**
 * Tries `call` on each candidate model in turn, retrying each as the policy allows, and resolves with the first
 * success. A model that cannot be resolved (unknown, no adapter) is skipped to the next. Rejects with the
 * caller's abort reason once the signal aborts, else with exhaustedError() of the last failure.
 */
export async function attemptInOrder<T>(
  plan: AttemptPlan,
  call: (model: string, resolved: ResolvedModel, signal: AbortSignal) => Promise<T>,
): Promise<Answered<T>> {
  const { signal, policy, logger } = plan;
  const sleep = plan.sleep ?? abortableSleep;
  const now = plan.now ?? Date.now;
  const failed: AttemptRecord[] = [];
  // Made only when needed: an Error (and its stack trace) per request is measurable on the hot path.
  let lastError: unknown = null;
  for (const model of plan.models) {
    const coolingUntil = plan.targetHealth?.refusedUntil(model, now()) ?? null;
    if (coolingUntil !== null) {
      lastError = coolingDown(model, coolingUntil, now());
      failed.push(recordOf(model, lastError));
      continue;
    }
    let resolved: ResolvedModel;
    try {
      signal.throwIfAborted();
      resolved = await plan.resolve(model);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      failed.push(recordOf(model, error));
      lastError = error;
      continue;
    }
    for (let attempt = 1; ; attempt += 1) {
      try {
        signal.throwIfAborted();
        return { model, resolved, value: await call(model, resolved, signal), failed };
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        failed.push(recordOf(model, error));
        lastError = error;
        const delay = shouldRetry(error, attempt, policy)
          ? backoffDelay(attempt, retryAfterOf(error, now()), policy, plan.random)
          : null;
        const { status, message } = failed.at(-1)!;
        logger.warn(
          { model, attempt, status, err: message, retry_in_ms: delay },
          delay === null ? 'upstream attempt failed' : 'upstream attempt failed; retrying',
        );
        if (delay === null) break;
        await sleep(delay, signal);
      }
    }
  }
  throw exhaustedError(lastError ?? new ApiError(400, 'No model to try.'), failed);
}

/** The request as one candidate gets it: its own model, and no fallback list (which names our ids, not its own). */
export function requestFor<Request extends Pick<ChatRequest, 'model' | 'models'>>(
  request: Request,
  model: string,
): Request {
  const { models: _models, ...rest } = request;
  return { ...rest, model } as Request;
}

/**
 * Starts a stream and waits for its first part, so that an upstream that accepts the request and then fails
 * before sending anything (an error event, a dropped connection) still counts as a failed attempt: nothing has
 * reached the caller yet. The returned iterable replays that part, then the rest.
 */
export async function startStream(
  adapter: ProviderAdapter,
  request: ChatRequest,
  target: UpstreamTarget,
  signal: AbortSignal,
): Promise<AsyncIterable<StreamPart>> {
  const parts = await adapter.streamChat(request, target, signal);
  const iterator = parts[Symbol.asyncIterator]();
  let first: IteratorResult<StreamPart> | null = await iterator.next();
  // Not an async generator: `yield*` would add a promise hop to every part of the stream.
  const replay: AsyncIterableIterator<StreamPart> = {
    [Symbol.asyncIterator]: () => replay,
    next() {
      if (first === null) return iterator.next();
      const replayed = first;
      first = null;
      return Promise.resolve(replayed);
    },
    async return(value?: unknown) {
      first = null;
      await iterator.return?.(value);
      return { value: undefined, done: true };
    },
  };
  return replay;
}
