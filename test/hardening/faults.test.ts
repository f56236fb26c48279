// Upstream faults: a refused connection, no answer, a stream that stops, garbage, a reset, an error that quotes
// the key. Each must end in a mapped error (the envelope, or an error chunk once a stream has begun), leave no
// socket or timer behind, and a caller who goes away must take its upstream request with it.

import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { useHarness } from '../support/use-harness.js';
import { waitFor } from '../support/wait-for.js';
import {
  callerSecret,
  expectErrorShape,
  faults,
  sseData,
  startHardeningHarness,
  upstreamSecret,
  type HardeningHarness,
} from './harness.js';

interface Answer {
  status: number;
  text: string;
}

async function chat(harness: HardeningHarness, model: string, stream: boolean): Promise<Answer> {
  const response = await fetch(`${harness.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
  });
  return { status: response.status, text: await response.text() };
}

/** The upstream's fault, not the caller's: 408 (the upstream timed out, OpenRouter's code) or a 5xx. */
function expectUpstreamStatus(status: number): void {
  expect(status === 408 || (status >= 500 && status < 600), `status ${status}`).toBe(true);
}

/** A failed answer: the envelope with a mapped status, or (a stream that had begun) an error chunk and [DONE]. */
function expectMappedFailure(answer: Answer): void {
  expect(answer.text).not.toContain(upstreamSecret);
  if (answer.status !== 200) {
    expectUpstreamStatus(answer.status);
    expectErrorShape(answer.status, answer.text);
    return;
  }
  const events = sseData(answer.text);
  expect(events.at(-1)).toBe('[DONE]');
  const last = JSON.parse(events.at(-2)!) as {
    choices: { finish_reason: string }[];
    error?: { code: number; message: string };
  };
  expect(last.choices[0]!.finish_reason).toBe('error');
  expectUpstreamStatus(last.error?.code ?? 0);
}

const faultyModels = [
  'down/anything', // connection refused
  `fault/${faults.hangHeaders}`,
  `fault/${faults.hangMidStream}`,
  `fault/${faults.garbage}`,
  `fault/${faults.garbageJson}`,
  `fault/${faults.binary}`,
  `fault/${faults.reset}`,
  `fault/${faults.echoKey}`,
  `fault/${faults.echoKeyStream}`,
];

const mainDir = fileURLToPath(new URL('../../main/', import.meta.url));

/**
 * Timers created by Switchyard's own code (main/) that are still pending: every one of them belongs to a request,
 * so once no request is in flight there must be none. Timers that are unref'd do not show in
 * process.getActiveResourcesInfo(), hence the bookkeeping.
 */
function trackOwnTimers(): { pending(): string[]; restore(): void } {
  const original = {
    setTimeout: globalThis.setTimeout,
    setInterval: globalThis.setInterval,
    clearTimeout: globalThis.clearTimeout,
    clearInterval: globalThis.clearInterval,
  };
  const pending = new Map<unknown, string>();
  const origin = () => {
    const stack = new Error().stack ?? '';
    const line = stack.split('\n').find((frame) => frame.includes(mainDir));
    return line?.trim();
  };
  const patched = {
    setTimeout: ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const where = origin();
      const timer = original.setTimeout(
        (...callArgs: unknown[]) => {
          pending.delete(timer);
          callback(...callArgs);
        },
        ms,
        ...args,
      );
      if (where) pending.set(timer, where);
      return timer;
    }) as typeof setTimeout,
    setInterval: ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const where = origin();
      const timer = original.setInterval(callback, ms, ...args);
      if (where) pending.set(timer, where);
      return timer;
    }) as typeof setInterval,
    clearTimeout: ((timer: NodeJS.Timeout | undefined) => {
      pending.delete(timer);
      original.clearTimeout(timer);
    }) as typeof clearTimeout,
    clearInterval: ((timer: NodeJS.Timeout | undefined) => {
      pending.delete(timer);
      original.clearInterval(timer);
    }) as typeof clearInterval,
  };
  Object.assign(globalThis, patched);
  return {
    pending: () => [...pending.values()],
    restore: () => Object.assign(globalThis, original),
  };
}

function countResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

describe('upstream faults', () => {
  const harness = useHarness(startHardeningHarness);

  it.each(faultyModels)('maps %s to an error in the envelope when the answer is one JSON object', async (model) => {
    const answer = await chat(harness(), model, false);
    expect(answer.status).not.toBe(200);
    expectMappedFailure(answer);
  });

  it.each(faultyModels)('maps %s to an error status or an error chunk when streaming', async (model) => {
    expectMappedFailure(await chat(harness(), model, true));
  });

  it('records one usage row per failed request, none of them a success', async () => {
    const before = harness().usage.length;
    await Promise.all(faultyModels.map((model) => chat(harness(), model, true)));
    await waitFor(() => harness().usage.length === before + faultyModels.length, { what: 'a row per request' });
    for (const row of harness().usage.slice(before)) {
      expect(row.status !== 200 || row.finish_reason === 'error').toBe(true);
      expect(row.error ?? '').not.toContain(upstreamSecret);
    }
  });
});

describe('nothing is left behind after faults', () => {
  let timers: ReturnType<typeof trackOwnTimers> | undefined;

  afterEach(() => {
    timers?.restore();
    timers = undefined;
  });

  it('closes every upstream connection and timer of failed requests, and every socket on close', async () => {
    const before = countResources();
    timers = trackOwnTimers();
    const harness = await startHardeningHarness();
    try {
      const answers = await Promise.all(
        faultyModels.flatMap((model) => [chat(harness, model, true), chat(harness, model, false)]),
      );
      for (const answer of answers) expectMappedFailure(answer);
      // The upstream saw every request end: the hung ones because the gateway closed their connections.
      await Promise.all(harness.upstream.requests.map((request) => request.closed));
      expect(harness.upstream.requests.length).toBeGreaterThanOrEqual(2 * (faultyModels.length - 1));
      // The gateway's own timers (keep-alives, early opening, retries) all belonged to requests that are over.
      await waitFor(() => timers!.pending().length === 0, {
        what: `no pending timers: ${timers!.pending().join('; ')}`,
      });
      // And it still serves.
      const ok = await chat(harness, `fault/${faults.ok}`, true);
      expect(sseData(ok.text).at(-1)).toBe('[DONE]');
    } finally {
      await harness.close();
    }
    timers.restore();
    const sockets = (counts: Record<string, number>) => (counts.TCPSocketWrap ?? 0) + (counts.TCPServerWrap ?? 0);
    await waitFor(() => sockets(countResources()) <= sockets(before), { what: 'the sockets of before' });
  });
});

describe('a caller that goes away', () => {
  // Long upstream timeouts: what ends the upstream request below must be the caller leaving, not a timeout.
  const harness = useHarness(() => startHardeningHarness({ upstreamTimeoutMs: 60_000 }));

  /** Starts a request, waits for `ready` bytes of the answer (or none), then destroys the connection. */
  function requestThenLeave(model: string, stream: boolean, waitForBody: boolean): Promise<number> {
    return new Promise((resolve, reject) => {
      const body = JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] });
      const request = httpRequest(`${harness().baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
      });
      const leave = () => {
        const leftAt = performance.now();
        request.destroy();
        resolve(leftAt);
      };
      request.on('error', () => undefined);
      request.on('response', (response) => {
        response.once('data', () => leave());
      });
      request.end(body);
      if (!waitForBody) {
        void waitFor(() => harness().upstream.requests.some((seen) => seen.closedAt === null), {
          what: 'upstream request',
        })
          .then(leave)
          .catch(reject);
      }
    });
  }

  it('aborts the upstream stream at once when the caller disconnects mid-stream', async () => {
    const delays: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const seen = harness().upstream.requests.length;
      const leftAt = await requestThenLeave(`fault/${faults.slow}`, true, true);
      await waitFor(() => harness().upstream.requests.length > seen, { what: 'the upstream request' });
      const upstreamRequest = harness().upstream.requests[seen]!;
      delays.push((await upstreamRequest.closed) - leftAt);
      // The fake streams for 20 s: closed before its end, the gateway let go of it when the caller left.
      expect(upstreamRequest.closedEarly).toBe(true);
    }
    // How soon is measured, not asserted (timing on a loaded machine is no test); the benchmark reports it too.
    console.info(`caller gone → upstream closed: ${delays.map((delay) => delay.toFixed(1)).join(', ')} ms`);
    await waitFor(() => harness().usage.filter((row) => row.finish_reason === 'cancelled').length >= 5, {
      what: 'rows',
    });
  });

  it('aborts the upstream request when the caller of a whole completion goes away before the answer', async () => {
    const seen = harness().upstream.requests.length;
    await requestThenLeave(`fault/${faults.hangHeaders}`, false, false);
    // The fake never answers: only the gateway letting go closes the request.
    await harness().upstream.requests[seen]!.closed;
    expect(harness().upstream.requests[seen]!.closedEarly).toBe(true);
  });
});
