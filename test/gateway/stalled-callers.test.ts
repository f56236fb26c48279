// Callers that stop reading a stream, on every streaming path (chat completions on both bases, Responses,
// Anthropic Messages and the Gemini API translated and native, legacy completions): the upstream streams without
// end, the callers' sockets are paused and never read. The gateway must not keep reading the upstream for them,
// and must end their streams after the configured time: upstream request aborted, usage row as for a caller who
// left. A caller that reads slowly but keeps reading gets its whole stream.

import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, chunk, sse } from '../support/fake-openai.js';
import type { RecordedRequest } from '../support/recording-server.js';
import { eventStreamHeaders } from '../support/recording-server.js';
import { anthropicModel, geminiModel, openaiModel, startThreeKinds, type ThreeKinds } from '../support/three-kinds.js';
import { waitFor } from '../support/wait-for.js';

const secret = 'sk-sy-v1-stalled-callers';
const stalledCallerMs = 1_500;
/** Generated text in each upstream event: events of about 2 KB. */
const text = 'All work and no play makes Jack a dull boy. '.repeat(45);

let kinds: ThreeKinds;

beforeAll(async () => {
  kinds = await startThreeKinds({ callers: { caller: secret }, stalledCallerMs });
  kinds.openai.on('gpt-test', () => ({
    headers: eventStreamHeaders,
    chunks: [sse(chunk('gpt-test', { role: 'assistant', content: '' }))],
    repeat: sse(chunk('gpt-test', { content: text })),
  }));
  kinds.openai.legacyCompletion = () => ({
    headers: eventStreamHeaders,
    repeat: sse({
      id: 'cmpl-endless',
      object: 'text_completion',
      created: 1_700_000_000,
      model: 'gpt-test',
      choices: [{ index: 0, text, finish_reason: null, logprobs: null }],
    }),
  });
  const anthropicEvent = (type: string, payload: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
  kinds.anthropic.fallback = () => ({
    headers: eventStreamHeaders,
    chunks: [
      anthropicEvent('message_start', {
        message: {
          id: 'msg_endless',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-20250514',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 9, output_tokens: 1 },
        },
      }),
      anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ],
    repeat: anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
  });
  kinds.gemini.fallback = () => ({
    headers: eventStreamHeaders,
    repeat: `data: ${JSON.stringify({
      candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0 }],
      modelVersion: 'gemini-2.5-flash',
    })}\r\n\r\n`,
  });
});

afterAll(async () => {
  await kinds?.close();
});

const messages = [{ role: 'user', content: 'Write forever.' }];
const contents = [{ role: 'user', parts: [{ text: 'Write forever.' }] }];

/** Every streaming path, with the request that opens a stream on it. */
const streamingPaths = [
  { name: 'chat completions on /api/v1', path: '/api/v1/chat/completions', body: { model: openaiModel, messages } },
  {
    name: 'chat completions on /v1',
    path: '/v1/chat/completions',
    body: { model: openaiModel, messages, stream: true },
  },
  { name: 'Responses', path: '/v1/responses', body: { model: openaiModel, input: 'Write forever.', stream: true } },
  {
    name: 'Anthropic Messages, translated',
    path: '/v1/messages',
    body: { model: openaiModel, max_tokens: 100_000, messages, stream: true },
  },
  {
    name: 'Anthropic Messages, native',
    path: '/v1/messages',
    body: { model: anthropicModel, max_tokens: 100_000, messages, stream: true },
  },
  {
    name: 'Gemini API, translated',
    path: `/v1beta/models/${openaiModel}:streamGenerateContent?alt=sse`,
    body: { contents },
  },
  {
    name: 'Gemini API, native',
    path: `/v1beta/models/${geminiModel}:streamGenerateContent?alt=sse`,
    body: { contents },
  },
  {
    name: 'legacy completions',
    path: '/v1/completions',
    body: { model: openaiModel, prompt: 'Write forever.', stream: true },
  },
];

function gatewayPort(): number {
  return Number(new URL(kinds.served.baseURL).port);
}

/** A caller that sends its request and never reads a byte of the answer. */
async function pausedCaller(path: string, body: unknown): Promise<Socket> {
  const socket = connect(gatewayPort(), '127.0.0.1');
  socket.pause();
  await once(socket, 'connect');
  const json = JSON.stringify(body);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${gatewayPort()}\r\nAuthorization: Bearer ${secret}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
  );
  return socket;
}

/** Every generation request the three upstreams received. */
function upstreamStreams(): RecordedRequest[] {
  const openaiCalls = kinds.openai.requests.filter((request) => request.method === 'POST');
  return [...openaiCalls, ...kinds.anthropic.messageRequests(), ...kinds.gemini.generateRequests()];
}

describe('callers that stop reading', () => {
  it('on every streaming path: the upstream gets no further ahead, and the stream ends after the stalled-caller time', async () => {
    const callersPerPath = 3;
    const callers = await Promise.all(
      streamingPaths.flatMap(({ path, body }) =>
        Array.from({ length: callersPerPath }, () => pausedCaller(path, body)),
      ),
    );
    const count = callers.length;
    await waitFor(() => upstreamStreams().length === count, { what: 'every stream to reach its upstream' });

    // The callers never read: each stream is ended once its caller has taken nothing for stalledCallerMs, which
    // closes its upstream connection.
    const streams = upstreamStreams();
    await waitFor(() => streams.every((request) => request.closedAt !== null), {
      what: 'every upstream stream to be closed',
      timeoutMs: 120_000,
      everyMs: 100,
    });
    expect(streams.every((request) => request.closedEarly)).toBe(true);
    // What the upstream could send a caller is what the kernel buffers on the way hold (a few MiB on each side)
    // and a bounded amount in the gateway, not what it would have generated in the meantime.
    const mostSent = Math.max(...streams.map((request) => request.sent));
    expect(mostSent).toBeLessThan(32 * 1024 * 1024);

    // The usage row of each is that of a caller who left: cancelled, with what was generated (estimated or as the
    // upstream counted it).
    const rows = await waitFor(() => kinds.usage.length >= count && kinds.usage, { what: 'a usage row per stream' });
    expect(rows).toHaveLength(count);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 200, finish_reason: 'cancelled', streamed: true });
      expect(row.completion_tokens, JSON.stringify(row)).toBeGreaterThan(0);
    }

    // Each caller's connection was closed by the gateway: once it reads, it reaches the end.
    await Promise.all(
      callers.map(async (socket) => {
        const closed = once(socket, 'close');
        socket.resume();
        await closed;
      }),
    );
  }, 180_000);

  it('a caller that reads slowly but keeps reading gets its whole stream', async () => {
    // 8 MB of events: more than the socket buffers on the way hold, so the gateway waits for the caller.
    const pieces = Array<string>(4_000).fill(text);
    kinds.openai.script(answer({ content: pieces, usage: { prompt_tokens: 3, completion_tokens: 4_000 } }));
    const rowsBefore = kinds.usage.length;
    const socket = await pausedCaller('/api/v1/chat/completions', { model: openaiModel, messages });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => {
      received += data;
      // A pause after each read, far shorter than the stalled-caller time.
      socket.pause();
      setTimeout(() => socket.resume(), 20);
    });
    socket.resume();
    await waitFor(() => received.includes('data: [DONE]'), { what: 'the end of the stream', timeoutMs: 120_000 });
    socket.destroy();
    expect(received.split('All work and no play').length - 1).toBe(pieces.length * 45);
    const row = await waitFor(() => kinds.usage[rowsBefore], { what: 'the usage row' });
    expect(row).toMatchObject({ status: 200, finish_reason: 'stop', completion_tokens: 4_000 });
  }, 180_000);
});
