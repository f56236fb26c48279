import { describe, expect, it } from 'vitest';
import { redactorFor } from '../http/redact.js';
import type { ApiError } from '../../../shared/api/index.js';
import type { StreamPart } from '../adapter.js';
import { expectSplitsAgree, failedStream, fixture, rejection, sseEvents, streamed, usageOf } from '../test-support.js';
import { GeminiStreamDecoder } from './decode-gemini-stream.js';

const apiKey = 'AIzaSy-upstream-secret-123';

function newDecoder(emitReasoning = true): GeminiStreamDecoder {
  let counter = 0;
  return new GeminiStreamDecoder({
    providerId: 'gemini',
    secrets: redactorFor(apiKey),
    emitReasoning,
    createToolCallId: () => `call_gen${++counter}`,
  });
}

/** The fixture through the real SSE framing (Gemini separates events with CRLF) and the decoder. */
async function decode(text: string, { size = text.length, emitReasoning = true } = {}): Promise<StreamPart[]> {
  const decoder = newDecoder(emitReasoning);
  const parts: StreamPart[] = [];
  for await (const event of sseEvents(text, 'gemini', size)) parts.push(...decoder.accept(event.data));
  parts.push(...decoder.end());
  return parts;
}

function decodeError(text: string, seen: StreamPart[] = []): Promise<ApiError> {
  return rejection(async () => {
    const decoder = newDecoder();
    for await (const event of sseEvents(text, 'gemini')) seen.push(...decoder.accept(event.data));
    decoder.end();
  });
}

describe('GeminiStreamDecoder', () => {
  it('decodes text, a signature on the empty last part, the finish and the last usageMetadata', async () => {
    const parts = await decode(fixture('google', 'gemini-text.sse.txt'));
    expect(streamed(parts).content).toBe('Hello, wörld! 👋');
    expect(streamed(parts).details).toEqual([
      {
        type: 'reasoning.encrypted',
        data: 'CiQB0e2Kb4bJ9gZ1mV1oXQm7yWk3YjM4NzEzZDQ0ZmE5YzQ2YWI=',
        format: 'google-gemini-v1',
        index: 0,
      },
    ]);
    expect(parts.slice(-2)).toEqual([
      { type: 'delta', index: 0, delta: {}, finish_reason: 'stop', native_finish_reason: 'STOP' },
      {
        type: 'usage',
        usage: usageOf(1543, 57, { cached: 1024, reasoning: 50 }),
      },
    ]);
  });

  it('gives the same parts however the body is split', async () => {
    const inPieces = (body: string, size: number) => decode(body, { size });
    await expectSplitsAgree(inPieces, fixture('google', 'gemini-thinking-tool-calls.sse.txt'), [1, 5, 100]);
  });

  it('emits thoughts as reasoning, each function call whole in one delta, and its signature with the call id', async () => {
    const parts = await decode(fixture('google', 'gemini-thinking-tool-calls.sse.txt'));
    expect(streamed(parts).reasoning).toBe(
      '**Checking weather and time**\n\nThe user asks for Paris. I will call both functions.',
    );
    expect(streamed(parts).toolCalls).toEqual([
      {
        index: 0,
        id: 'call_gen1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' },
      },
      {
        index: 1,
        id: 'call_gen2',
        type: 'function',
        function: { name: 'get_time', arguments: '{"tz":"Europe/Paris"}' },
      },
    ]);
    expect(streamed(parts).details).toEqual([
      {
        type: 'reasoning.text',
        text: '**Checking weather and time**\n\nThe user asks for Paris. ',
        format: 'google-gemini-v1',
        index: 0,
      },
      { type: 'reasoning.text', text: 'I will call both functions.', format: 'google-gemini-v1', index: 0 },
      {
        type: 'reasoning.encrypted',
        data: 'CtwDAdHtim9fL0Vq3Bz1sQ8oO0yNxM2Xq1c9aPbKqRz4u7/EWxv+0JvIu2gFh0lT9yPzkK8Wm3hV4cZ1nJ6Rb2sT5pYq8dA==',
        id: 'call_gen1',
        format: 'google-gemini-v1',
        index: 1,
      },
    ]);
    // The signature travels in the same delta as its call.
    expect(
      streamed(parts).deltas.find((delta) => delta.tool_calls?.[0]?.id === 'call_gen1')?.reasoning_details,
    ).toHaveLength(1);
    expect(parts.at(-2)).toEqual({
      type: 'delta',
      index: 0,
      delta: {},
      finish_reason: 'tool_calls',
      native_finish_reason: 'STOP',
    });
    expect(parts.at(-1)).toEqual({
      type: 'usage',
      usage: usageOf(96, 38 + 178, { cached: 0, reasoning: 178 }),
    });
  });

  it('keeps Gemini call ids when it sends them', async () => {
    const decoder = newDecoder();
    const parts = decoder.acceptResponse({
      candidates: [
        { content: { parts: [{ functionCall: { id: 'fc_9', name: 'f', args: {} } }] }, finishReason: 'STOP' },
      ],
    });
    expect(streamed(parts).toolCalls).toEqual([
      { index: 0, id: 'fc_9', type: 'function', function: { name: 'f', arguments: '{}' } },
    ]);
  });

  it('leaves thought text out when reasoning is excluded, but keeps the signatures the next turn needs', async () => {
    const parts = await decode(fixture('google', 'gemini-thinking-tool-calls.sse.txt'), { emitReasoning: false });
    expect(streamed(parts).reasoning).toBe('');
    expect(streamed(parts).details.map((detail) => [detail.type, detail.id, detail.index])).toEqual([
      ['reasoning.encrypted', 'call_gen1', 0],
    ]);
  });

  it('finishes a blocked prompt with content_filter and the block reason', async () => {
    const parts = await decode(fixture('google', 'gemini-prompt-blocked.sse.txt'));
    expect(parts[0]).toEqual({
      type: 'delta',
      index: 0,
      delta: {},
      finish_reason: 'content_filter',
      native_finish_reason: 'PROHIBITED_CONTENT',
    });
  });

  it('throws the mapped status for an error payload mid-stream, after the parts before it', async () => {
    const { before, error } = await failedStream(
      decodeError,
      fixture('google', 'gemini-overloaded-mid-stream.sse.txt'),
    );
    expect(before.content).toBe('Once upon');
    expect(error.status).toBe(503);
    expect(error.message).toBe(
      'Provider "gemini" is unavailable or overloaded (upstream 503): The model is overloaded. Please try again later.',
    );
    expect(error.metadata).toMatchObject({
      provider_name: 'gemini',
      raw: { error: { code: 503, status: 'UNAVAILABLE' } },
    });
    const limited = await decodeError(
      'data: {"error":{"code":429,"message":"Quota","status":"RESOURCE_EXHAUSTED"}}\r\n\r\n',
    );
    expect(limited.status).toBe(429);
  });

  it('treats a stream that ends without a finishReason as truncated', async () => {
    const body = fixture('google', 'gemini-text.sse.txt');
    const error = await decodeError(body.slice(0, body.lastIndexOf('data:')));
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/truncated/);
    expect((await decodeError('')).message).toMatch(/truncated/);
  });

  it('throws a 502 for data that is not JSON or not a response, without echoing the key', async () => {
    const garbage = await decodeError(`data: {"candidates": [ ${apiKey}\r\n\r\n`);
    expect(garbage.status).toBe(502);
    expect(garbage.message).toMatch(/not JSON/);
    expect(JSON.stringify(garbage.metadata)).not.toContain(apiKey);
    expect((await decodeError('data: {"candidates":"nope"}\r\n\r\n')).status).toBe(502);
  });
});
