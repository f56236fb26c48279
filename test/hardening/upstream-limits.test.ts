// Upstreams that would hold a caller or fill the gateway's memory: one that never sends headers, one that drips a
// byte at a time and never completes an event, one whose answer or single event is larger than the caps. Each
// ends in the protocol's error shape (a 504 or 502 before the stream opened, a `finish_reason: "error"` chunk
// after), with the limit named, and is never asked twice. A request the gateway cannot encode never reaches it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIAdapter } from '../../main/providers/index.js';
import { chunk, FakeOpenAI, hang, sse, type Step } from '../support/fake-openai.js';
import { startTestGateway, type TestGateway } from '../support/test-gateway.js';
import { callerSecret } from './harness.js';

const timeoutMs = 1_000;
const maxBodyBytes = 256 * 1024;

function chunkEvent(content: string, finish: string | null = null): string {
  return sse(chunk('m', { content }, finish));
}

const json = { 'content-type': 'application/json' };
const eventStream = { 'content-type': 'text/event-stream' };
const limits: Record<string, Step> = {
  'no-headers': hang(),
  // One complete event first (streamed), then an event that never completes, a byte every 100 ms, until the
  // gateway hangs up.
  drip: (recorded) =>
    recorded.body?.stream === true
      ? {
          headers: eventStream,
          chunks: [chunkEvent('first '), ...chunkEvent('x'.repeat(500))],
          chunkDelayMs: 100,
          then: 'hang',
        }
      : {
          headers: json,
          chunks: [...JSON.stringify({ padding: 'x'.repeat(500) })],
          firstChunkAfterMs: 100,
          chunkDelayMs: 100,
          then: 'hang',
        },
  // A reasoning model thinking for longer than the event limit, with keep-alive comments: not cut off.
  comments: () => ({
    headers: eventStream,
    chunks: [...Array<string>(5).fill(': PROCESSING\n\n'), `${chunkEvent('thought long', 'stop')}data: [DONE]\n\n`],
    firstChunkAfterMs: timeoutMs / 3,
    chunkDelayMs: timeoutMs / 3,
  }),
  // The gateway must not wait for (or read) the rest.
  'huge-declared': () => ({
    headers: { ...json, 'content-length': String(maxBodyBytes * 4) },
    chunks: ['{"id":"'],
    then: 'hang',
  }),
  'huge-chunked': () => ({ headers: json, chunks: Array<string>(8).fill('z'.repeat(64 * 1024)) }),
  'huge-event': () => ({
    headers: eventStream,
    chunks: [chunkEvent('before '), `data: ${'e'.repeat(maxBodyBytes + 10)}\n\n`],
  }),
};

let upstream: FakeOpenAI;
let served: TestGateway;
let baseURL: string;

beforeAll(async () => {
  upstream = new FakeOpenAI({ models: Object.keys(limits), byModel: limits });
  served = await startTestGateway({
    providers: [{ id: 'slow', baseUrl: await upstream.start() }],
    adapters: [createOpenAIAdapter({ headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs, maxBodyBytes })],
    callers: { 'key-1': callerSecret },
    // Retries allowed: the point is that none of these failures uses them.
    gateway: { retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 10 }, keepAliveMs: 60_000 },
  });
  baseURL = served.baseURL;
});

afterAll(async () => {
  await served.close(500);
  await upstream.close();
});

async function call(body: Record<string, unknown>) {
  const response = await fetch(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], ...body }),
  });
  return { status: response.status, text: await response.text() };
}

/** A whole answer's failure: its status and message. */
async function failure(model: string): Promise<{ status: number; message: string }> {
  const { status, text } = await call({ model, stream: false });
  return { status, message: (JSON.parse(text) as { error: { message: string } }).error.message };
}

function requestsFor(model: string): number {
  return upstream.requests.filter((request) => request.body?.model === model).length;
}

/** The error chunk a failed stream ends with, and the content streamed before it. */
function streamFailure(text: string): { content: string; error: { code: number; message: string }; finish: string } {
  const chunks = text
    .split('\n\n')
    .filter((event) => event.startsWith('data: {'))
    .map((event) => JSON.parse(event.slice(6)) as Record<string, never>);
  const failed = chunks.find((chunk) => 'error' in chunk) as unknown as {
    error: { code: number; message: string };
    choices: { finish_reason: string }[];
  };
  const content = chunks
    .map((chunk) => (chunk as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content ?? '')
    .join('');
  return { content, error: failed.error, finish: failed.choices[0]!.finish_reason };
}

describe('time limits on upstreams', () => {
  it('answers 504 when an upstream never sends its headers, and never asks it again', async () => {
    for (const stream of [false, true]) {
      const { status, text } = await call({ model: 'slow/no-headers', stream });
      expect(status).toBe(504);
      expect(JSON.parse(text)).toEqual({
        error: {
          code: 504,
          message: 'Provider "slow" did not answer within 1 s.',
          metadata: { provider_name: 'slow' },
        },
      });
    }
    expect(requestsFor('no-headers')).toBe(2);
  });

  it('ends a stream whose upstream drips bytes without completing an event with a finish_reason "error" chunk', async () => {
    const { status, text } = await call({ model: 'slow/drip', stream: true });
    expect(status).toBe(200);
    const failure = streamFailure(text);
    expect(failure.content).toBe('first ');
    expect(failure.finish).toBe('error');
    expect(failure.error).toMatchObject({
      code: 504,
      message: 'Provider "slow" sent no complete stream event for 1 s.',
    });
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('answers 504 when a whole answer drips in for longer than the body limit', async () => {
    expect(await failure('slow/drip')).toEqual({
      status: 504,
      message: 'Provider "slow" did not finish sending its answer within 1 s.',
    });
    expect(requestsFor('drip')).toBe(2);
  });

  it('lets an upstream think past the event limit while it sends keep-alive comments', async () => {
    const { status, text } = await call({ model: 'slow/comments', stream: true });
    expect(status).toBe(200);
    expect(text).toContain('thought long');
    expect(text).not.toContain('"error"');
  });
});

describe('size limits on upstream answers', () => {
  it('refuses an answer that declares more than the cap without reading it, naming the cap', async () => {
    expect(await failure('slow/huge-declared')).toEqual({
      status: 502,
      message: 'Provider "slow" answered with a body over 0.3 MiB, the limit for one answer.',
    });
    expect(requestsFor('huge-declared')).toBe(1);
  });

  it('stops reading an answer that grows past the cap', async () => {
    const { status, message } = await failure('slow/huge-chunked');
    expect(status).toBe(502);
    expect(message).toContain('the limit for one answer');
    expect(requestsFor('huge-chunked')).toBe(1);
  });

  it('ends a stream with an error chunk at an event over the cap', async () => {
    const { status, text } = await call({ model: 'slow/huge-event', stream: true });
    expect(status).toBe(200);
    const failure = streamFailure(text);
    expect(failure.content).toBe('before ');
    expect(failure.error).toMatchObject({ code: 502 });
    expect(failure.error.message).toContain('the limit for one event');
    expect(requestsFor('huge-event')).toBe(1);
  });
});

describe('requests the gateway cannot send', () => {
  it('answers a tool schema nested 5,000 levels deep with a 400 naming the field; the upstream is never asked', async () => {
    const depth = 5_000;
    const parameters = '{"type":"object","properties":{"a":'.repeat(depth) + '{"type":"string"}' + '}}'.repeat(depth);
    const before = upstream.requests.length;
    const response = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
      body: `{"model":"slow/anything","stream":false,"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"deep","parameters":${parameters}}}]}`,
    });
    const { status, text } = { status: response.status, text: await response.text() };
    expect(status).toBe(400);
    expect(JSON.parse(text).error.message).toContain('tools[0].function.parameters');
    expect(upstream.requests.length).toBe(before);
  });
});
