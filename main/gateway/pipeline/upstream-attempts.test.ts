import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ApiError, type ProviderInfo } from '../../../shared/api/index.js';
import { UpstreamError, type ProviderAdapter, type StreamPart, type ResolvedModel } from '../../providers/index.js';
import {
  abortableSleep,
  attemptInOrder,
  backoffDelay,
  candidateModels,
  defaultRetryPolicy,
  parseRetryAfter,
  requestFor,
  retryAfterOf,
  retryPolicy,
  shouldRetry,
  startStream,
  type AttemptPlan,
} from './upstream-attempts.js';

const logger = pino({ level: 'silent' });

function upstream(status: number, upstreamStatus?: number, headers: Record<string, string> = {}): ApiError {
  if (upstreamStatus === undefined)
    return new ApiError(status, `failed with ${status}`, { provider_name: 'p' }, headers);
  const retryAfter = headers['retry-after'];
  return new UpstreamError({
    status,
    message: `failed with ${status}`,
    provider: 'p',
    upstreamStatus,
    headers,
    ...(retryAfter ? { retryAfter } : {}),
  });
}

describe('shouldRetry', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries %i', (status) => {
    expect(shouldRetry(new ApiError(status, 'x'), 1)).toBe(true);
  });

  it.each([400, 401, 402, 403, 404, 413, 422, 501])('never retries %i', (status) => {
    expect(shouldRetry(new ApiError(status, 'x'), 1)).toBe(false);
  });

  it('judges by the upstream status when the adapter told it: a rejected key (our 502) never passes', () => {
    expect(shouldRetry(upstream(502, 401), 1)).toBe(false);
    expect(shouldRetry(upstream(502, 418), 1)).toBe(false);
    expect(shouldRetry(upstream(502, 500), 1)).toBe(true);
    expect(shouldRetry(upstream(503, 529), 1)).toBe(true);
  });

  it('never retries a failure marked not retryable, nor something that is not an ApiError', () => {
    const timedOut = new UpstreamError({ status: 504, message: 'our own timeout', provider: 'p', retryable: false });
    expect(shouldRetry(timedOut, 1)).toBe(false);
    expect(shouldRetry(new TypeError('a bug'), 1)).toBe(false);
  });

  it('stops after maxRetries retries', () => {
    const error = new ApiError(503, 'x');
    expect(shouldRetry(error, 2)).toBe(true);
    expect(shouldRetry(error, 3)).toBe(false);
    expect(shouldRetry(error, 1, retryPolicy({ maxRetries: 0 }))).toBe(false);
  });
});

describe('backoffDelay', () => {
  it('doubles from baseDelayMs, caps at maxDelayMs, and jitter takes off at most half', () => {
    const policy = retryPolicy({ baseDelayMs: 500, maxDelayMs: 3_000 });
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(attempt, null, policy, () => 0))).toEqual([
      500, 1_000, 2_000, 3_000,
    ]);
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(attempt, null, policy, () => 1))).toEqual([
      250, 500, 1_000, 1_500,
    ]);
    for (let index = 0; index < 100; index += 1) {
      const delay = backoffDelay(2, null, policy)!;
      expect(delay).toBeGreaterThanOrEqual(500);
      expect(delay).toBeLessThanOrEqual(1_000);
    }
  });

  it('honours a Retry-After up to maxRetryAfterMs exactly, and gives up on the model for a longer one', () => {
    expect(backoffDelay(1, 1_000, defaultRetryPolicy, () => 0.5)).toBe(1_000);
    expect(backoffDelay(1, 10_000)).toBe(10_000);
    expect(backoffDelay(1, 10_001)).toBeNull();
    expect(backoffDelay(1, 0)).toBe(0);
  });
});

describe('parseRetryAfter and retryAfterOf', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1_500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });

  it('prefers the upstream Retry-After the adapter kept (a 503 has no header of ours)', () => {
    expect(retryAfterOf(upstream(429, 429, { 'retry-after': '2' }), now)).toBe(2_000);
    expect(retryAfterOf(new UpstreamError({ status: 503, message: 'x', provider: 'p', retryAfter: '4' }), now)).toBe(
      4_000,
    );
    expect(retryAfterOf(new ApiError(503, 'x'), now)).toBeNull();
    expect(retryAfterOf(new Error('x'), now)).toBeNull();
  });
});

describe('retryPolicy', () => {
  it('fills defaults and ignores unusable values', () => {
    expect(retryPolicy()).toEqual({ maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 10_000 });
    expect(retryPolicy({ maxRetries: 0, baseDelayMs: -1, maxDelayMs: Number.NaN })).toMatchObject({
      maxRetries: 0,
      baseDelayMs: 500,
      maxDelayMs: 8_000,
    });
  });
});

describe('candidateModels and requestFor', () => {
  it('tries model first, then models in order, without repeats', () => {
    expect(candidateModels({ model: 'a/x', models: ['b/y', 'a/x', 'c/z', 'b/y'] })).toEqual(['a/x', 'b/y', 'c/z']);
    expect(candidateModels({ model: 'a/x' })).toEqual(['a/x']);
  });

  it('rejects a malformed fallback id with a 400 before anything is tried', () => {
    expect(() => candidateModels({ model: 'a/x', models: ['gpt-4o'] })).toThrow(ApiError);
  });

  it('gives each candidate its own model and no fallback list', () => {
    const request = { model: 'a/x', models: ['b/y'], messages: [], stream: true };
    expect(requestFor(request, 'b/y')).toEqual({ model: 'b/y', messages: [], stream: true });
  });
});

function resolvedFor(model: string): ResolvedModel {
  const providerId = model.split('/')[0]!;
  const provider: ProviderInfo = {
    id: providerId,
    kind: 'openai',
    base_url: `http://${providerId}.test/v1`,
    has_api_key: false,
    created_at: '',
  };
  return { adapter: {} as ProviderAdapter, target: { provider, apiKey: null, model: model.split('/')[1]! } };
}

/** A plan whose calls follow `script` (per model: errors to throw, then success) and whose sleeps are recorded. */
function scripted(models: string[], script: Record<string, (Error | 'ok')[]>, signal = new AbortController().signal) {
  const calls: string[] = [];
  const sleeps: number[] = [];
  const plan: AttemptPlan = {
    models,
    resolve: async (model) => {
      if (model.startsWith('unknown/')) throw new ApiError(404, `Unknown provider "unknown".`);
      return resolvedFor(model);
    },
    signal,
    policy: retryPolicy({ baseDelayMs: 100 }),
    logger,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
  };
  const call = async (model: string) => {
    calls.push(model);
    const next = script[model]?.shift() ?? 'ok';
    if (next !== 'ok') throw next;
    return `answer of ${model}`;
  };
  return { plan, call, calls, sleeps };
}

describe('attemptInOrder', () => {
  it('retries a 503 with backoff and answers', async () => {
    const { plan, call, calls, sleeps } = scripted(['p/m'], { 'p/m': [upstream(503), upstream(503)] });
    const answered = await attemptInOrder(plan, call);
    expect(answered).toMatchObject({ model: 'p/m', value: 'answer of p/m' });
    expect(answered.failed.map((attempt) => attempt.status)).toEqual([503, 503]);
    expect(calls).toEqual(['p/m', 'p/m', 'p/m']);
    expect(sleeps).toEqual([100, 200]);
  });

  it('waits what Retry-After asks', async () => {
    const { plan, call, sleeps } = scripted(['p/m'], { 'p/m': [upstream(429, 429, { 'retry-after': '1' })] });
    await attemptInOrder(plan, call);
    expect(sleeps).toEqual([1_000]);
  });

  it('moves on to the next model after the retries, after a long Retry-After, and after an unknown model', async () => {
    const { plan, call, calls, sleeps } = scripted(['p/m', 'unknown/x', 'q/n', 'r/o'], {
      'p/m': [upstream(503), upstream(503), upstream(503)],
      'q/n': [upstream(429, 429, { 'retry-after': '60' })],
    });
    const answered = await attemptInOrder(plan, call);
    expect(answered.model).toBe('r/o');
    expect(calls).toEqual(['p/m', 'p/m', 'p/m', 'q/n', 'r/o']);
    expect(sleeps).toEqual([100, 200]);
    expect(answered.failed.map(({ model, status }) => `${model} ${status}`)).toEqual([
      'p/m 503',
      'p/m 503',
      'p/m 503',
      'unknown/x 404',
      'q/n 429',
    ]);
  });

  it('skips a candidate cooling down without calling it, and answers 503 with Retry-After when all are', async () => {
    const cooling = new Map([['p/m', 1_000_000 + 30_000]]);
    const targetHealth = { refusedUntil: (model: string) => cooling.get(model) ?? null };
    const { plan, call, calls, sleeps } = scripted(['p/m', 'q/n'], {});
    const answered = await attemptInOrder({ ...plan, targetHealth, now: () => 1_000_000 }, call);
    expect(answered.model).toBe('q/n');
    expect(calls).toEqual(['q/n']);
    expect(sleeps).toEqual([]);
    expect(answered.failed).toEqual([{ model: 'p/m', status: 503, message: expect.stringContaining('cooling down') }]);

    cooling.set('q/n', 1_000_000 + 4_500);
    const allCooling = scripted(['p/m', 'q/n'], {});
    const refused = attemptInOrder({ ...allCooling.plan, targetHealth, now: () => 1_000_000 }, allCooling.call);
    await expect(refused).rejects.toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
    expect(allCooling.calls).toEqual([]);
  });

  it('never retries a 400, but a fallback may still answer it', async () => {
    const alone = scripted(['p/m'], { 'p/m': [upstream(400)] });
    await expect(attemptInOrder(alone.plan, alone.call)).rejects.toMatchObject({ status: 400 });
    expect(alone.calls).toEqual(['p/m']);
    const withFallback = scripted(['p/m', 'q/n'], { 'p/m': [upstream(400)] });
    expect((await attemptInOrder(withFallback.plan, withFallback.call)).model).toBe('q/n');
  });

  it('rejects with the last error, listing the attempts and telling SDKs not to retry on top', async () => {
    const { plan, call } = scripted(['p/m', 'q/n'], {
      'p/m': [upstream(503), upstream(503), upstream(503)],
      'q/n': [upstream(429, 429, { 'retry-after': '60' })],
    });
    const error = (await attemptInOrder(plan, call).catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    expect(error.message).toBe('failed with 429');
    expect(error.headers).toEqual({ 'retry-after': '60', 'x-should-retry': 'false' });
    expect(error.metadata).toEqual({
      provider_name: 'p',
      attempts: [
        { model: 'p/m', status: 503, message: 'failed with 503' },
        { model: 'p/m', status: 503, message: 'failed with 503' },
        { model: 'p/m', status: 503, message: 'failed with 503' },
        { model: 'q/n', status: 429, message: 'failed with 429' },
      ],
    });
  });

  it('rejects with a single attempt’s own error unchanged', async () => {
    const only = upstream(404);
    const { plan, call } = scripted(['p/m'], { 'p/m': [only] });
    await expect(attemptInOrder(plan, call)).rejects.toBe(only);
  });

  it('rethrows a bug (not an ApiError) of the last attempt as it is, for the route to log', async () => {
    const bug = new TypeError('boom');
    const { plan, call } = scripted(['p/m'], { 'p/m': [bug] });
    await expect(attemptInOrder(plan, call)).rejects.toBe(bug);
  });

  it('stops at once when the caller goes away during a backoff', async () => {
    const controller = new AbortController();
    const { plan, call, calls } = scripted(['p/m', 'q/n'], { 'p/m': [upstream(503)] }, controller.signal);
    let backoffStarted!: () => void;
    const inBackoff = new Promise<void>((resolve) => (backoffStarted = resolve));
    plan.sleep = (ms, signal) => {
      backoffStarted();
      return abortableSleep(ms, signal);
    };
    plan.policy = retryPolicy({ baseDelayMs: 60_000 });
    const attempting = attemptInOrder(plan, call);
    await inBackoff;
    const reason = new Error('caller gone');
    controller.abort(reason);
    await expect(attempting).rejects.toBe(reason);
    expect(calls).toEqual(['p/m']);
  });
});

describe('abortableSleep', () => {
  it('rejects at once for an aborted signal and leaves no listener behind', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(abortableSleep(10, controller.signal)).rejects.toThrow('gone');
    const live = new AbortController();
    await abortableSleep(1, live.signal);
    expect(live.signal.aborted).toBe(false);
  });
});

describe('startStream', () => {
  const part: StreamPart = { type: 'delta', index: 0, delta: { content: 'hi' } };
  const adapterOf = (parts: () => AsyncGenerator<StreamPart>): ProviderAdapter =>
    ({ streamChat: async () => parts() }) as unknown as ProviderAdapter;
  const target = resolvedFor('p/m').target;
  const request = { model: 'p/m', messages: [], stream: true };

  it('counts a failure before the first part as a failed start', async () => {
    const failing = adapterOf(async function* () {
      yield* [];
      throw upstream(502);
    });
    await expect(startStream(failing, request, target, new AbortController().signal)).rejects.toMatchObject({
      status: 502,
    });
  });

  it('replays the first part, then the rest', async () => {
    const second: StreamPart = { type: 'usage', usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
    const working = adapterOf(async function* () {
      yield part;
      yield second;
    });
    const parts = await startStream(working, request, target, new AbortController().signal);
    const seen: StreamPart[] = [];
    for await (const each of parts) seen.push(each);
    expect(seen).toEqual([part, second]);
  });
});
