import { describe, expect, it } from 'vitest';
import { redactorFor } from '../http/redact.js';
import type { ApiError } from '../../../shared/api/index.js';
import type { StreamPart } from '../adapter.js';
import { expectSplitsAgree, failedStream, fixture, rejection, sseEvents, streamed, usageOf } from '../test-support.js';
import { AnthropicStreamDecoder } from './decode-anthropic-stream.js';

const apiKey = 'sk-ant-upstream-secret-123';
/** The first fragment of a streamed tool call: its number, id and name, no arguments yet. */
const callStart = (index: number, id: string, name: string) => ({
  index,
  id,
  type: 'function',
  function: { name, arguments: '' },
});
const newDecoder = (emitReasoning = true) =>
  new AnthropicStreamDecoder({ providerId: 'claude', secrets: redactorFor(apiKey), emitReasoning });

/** The fixture through the real SSE framing and the decoder, as the adapter runs them. */
async function decode(text: string, { size = text.length, emitReasoning = true } = {}): Promise<StreamPart[]> {
  const decoder = newDecoder(emitReasoning);
  const parts: StreamPart[] = [];
  for await (const event of sseEvents(text, 'claude', size)) {
    parts.push(...decoder.accept(event));
    if (decoder.done) return parts;
  }
  decoder.end();
  return parts;
}

function decodeError(text: string, seen: StreamPart[] = []): Promise<ApiError> {
  return rejection(async () => {
    const decoder = newDecoder();
    for await (const event of sseEvents(text, 'claude')) seen.push(...decoder.accept(event));
    decoder.end();
  });
}

describe('AnthropicStreamDecoder', () => {
  it('decodes text, skips pings, and ends with the finish and the usage (cache reads and writes in the prompt)', async () => {
    const parts = await decode(fixture('anthropic', 'anthropic-text.sse.txt'));
    expect(streamed(parts).content).toBe('Hello, wörld! 👋');
    expect(parts.slice(-2)).toEqual([
      { type: 'delta', index: 0, delta: {}, finish_reason: 'stop', native_finish_reason: 'end_turn' },
      {
        type: 'usage',
        usage: usageOf(25 + 1200 + 3000, 12, { cached: 3000, cacheWrite: 1200 }),
      },
    ]);
    expect(parts.filter((part) => part.type === 'delta' && part.finish_reason)).toHaveLength(1);
  });

  it('gives the same parts however the body is split, bytes inside characters included', async () => {
    const inPieces = (body: string, size: number) => decode(body, { size });
    await expectSplitsAgree(inPieces, fixture('anthropic', 'anthropic-thinking-tool-calls.sse.txt'), [1, 7, 64]);
  });

  it('numbers tool calls among tool calls only (0, 1), not by content block, with ids, names and whole arguments', async () => {
    const parts = await decode(fixture('anthropic', 'anthropic-thinking-tool-calls.sse.txt'));
    const calls = streamed(parts).toolCalls;
    expect(calls[0]).toEqual(callStart(0, 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', 'get_weather'));
    const second = 'toolu_01Bq3kKJmXw2Zp1EVaGbC8sT';
    expect(calls.find((call) => call.id === second)).toEqual(callStart(1, second, 'get_time'));
    expect(new Set(calls.map((call) => call.index))).toEqual(new Set([0, 1]));
    expect(calls.filter((call) => call.id === undefined).every((call) => call.function?.name === undefined)).toBe(true);
    expect(streamed(parts).argumentsOf(0)).toEqual({ city: 'Paris', unit: 'c' });
    expect(streamed(parts).argumentsOf(1)).toEqual({ tz: 'Europe/Paris' });
    expect(streamed(parts).content).toBe('Let me check both.');
    expect(parts.at(-2)).toMatchObject({ finish_reason: 'tool_calls', native_finish_reason: 'tool_use' });
    expect(parts.at(-1)).toEqual({
      type: 'usage',
      usage: usageOf(512, 187, { cached: 0, cacheWrite: 0 }),
    });
  });

  it('streams thinking as reasoning + reasoning.text, the signature last without text, redacted as encrypted', async () => {
    const format = 'anthropic-claude-v1';
    const parts = await decode(fixture('anthropic', 'anthropic-thinking-tool-calls.sse.txt'));
    expect(streamed(parts).reasoning).toBe(
      'The user wants the weather and the time in Paris. I can call both tools at once.',
    );
    expect(streamed(parts).details).toEqual([
      { type: 'reasoning.text', text: 'The user wants the weather and the time in Paris.', format, index: 0 },
      { type: 'reasoning.text', text: ' I can call both tools at once.', format, index: 0 },
      {
        type: 'reasoning.text',
        signature:
          'EqQBCkgIBxABGAIiQL1lq0Yx7q9mO3t0A1wVHzmhGcFAkoSjO4P2Q+z1+dYhVQ5mYbKx8l0p8d7Ub6rGfcS0c0Wm9s6E9YlUQ1bZr2sSDGYlG0vY2m1u3Gk5/hoMQzkLq3l6oZ9Bq7T2IjB2pX8=',
        format,
        index: 0,
      },
      {
        type: 'reasoning.encrypted',
        data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB4URj/eDWfqAG1uQ==',
        format,
        index: 1,
      },
    ]);
  });

  it('passes no reasoning on when the caller excluded it, and still everything else', async () => {
    const parts = await decode(fixture('anthropic', 'anthropic-thinking-tool-calls.sse.txt'), { emitReasoning: false });
    expect(streamed(parts).reasoning).toBe('');
    expect(streamed(parts).details).toEqual([]);
    expect(streamed(parts).toolCalls.filter((call) => call.id)).toHaveLength(2);
  });

  it('sends {} as the arguments of a call that streamed no input', async () => {
    const parts = await decode(
      [
        'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}}',
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_x","name":"now","input":{}}}',
        'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}',
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}}',
        'event: message_stop\ndata: {"type":"message_stop"}',
      ].join('\n\n'),
    );
    expect(streamed(parts).toolCalls).toEqual([
      callStart(0, 'toolu_x', 'now'),
      { index: 0, function: { arguments: '{}' } },
    ]);
  });

  it('throws a 503 for an overloaded_error event after the 200, after the parts before it', async () => {
    const { before, error } = await failedStream(
      decodeError,
      fixture('anthropic', 'anthropic-overloaded-mid-stream.sse.txt'),
    );
    expect(before.content).toBe('Once upon');
    expect(error.status).toBe(503);
    expect(error.message).toBe('Provider "claude" is unavailable or overloaded (upstream 529): Overloaded');
    expect(error.metadata).toMatchObject({
      provider_name: 'claude',
      raw: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
  });

  it('maps other error types mid-stream by their HTTP meaning', async () => {
    const event = (type: string) => `event: error\ndata: {"type":"error","error":{"type":"${type}","message":"m"}}\n\n`;
    expect((await decodeError(event('rate_limit_error'))).status).toBe(429);
    expect((await decodeError(event('api_error'))).status).toBe(502);
    expect((await decodeError(event('something_new'))).status).toBe(502);
  });

  it('treats a stream that ends without message_stop as truncated', async () => {
    const body = fixture('anthropic', 'anthropic-text.sse.txt');
    const error = await decodeError(body.slice(0, body.indexOf('event: message_stop')));
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/truncated/);
  });

  it('throws a 502 for data that is not JSON, without echoing the provider key', async () => {
    const error = await decodeError(
      `event: message_start\ndata: {"type":"message_start","message":{}}\n\nevent: content_block_delta\ndata: {oops ${apiKey}\n\n`,
    );
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/not JSON/);
    expect(JSON.stringify(error.metadata)).not.toContain(apiKey);
  });

  it('throws a 502 for an event of the wrong shape and for a delta of a block that never started', async () => {
    expect((await decodeError('event: content_block_start\ndata: {"type":"content_block_start"}\n\n')).status).toBe(
      502,
    );
    const orphan = await decodeError(
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"x"}}\n\n',
    );
    expect(orphan.message).toMatch(/never started/);
  });

  it('ignores anything after message_stop', async () => {
    const parts = await decode(
      `${fixture('anthropic', 'anthropic-text.sse.txt')}event: content_block_delta\ndata: {garbage\n\n`,
    );
    expect(streamed(parts).content).toBe('Hello, wörld! 👋');
  });
});

describe('web-search citations in a stream', () => {
  it('arrive as one url_citation annotation per citation when their text block stops', async () => {
    // Anthropic names each event after its data's type.
    const event = (data: { type: string; [field: string]: unknown }) =>
      `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
    const body =
      event({ type: 'message_start', message: { usage: { input_tokens: 5, output_tokens: 1 } } }) +
      event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Hi. ' } }) +
      event({ type: 'content_block_stop', index: 0 }) +
      event({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: [] } }) +
      event({
        type: 'content_block_delta',
        index: 1,
        delta: {
          type: 'citations_delta',
          citation: { type: 'web_search_result_location', url: 'https://b.example/', title: 'B', cited_text: 'B says' },
        },
      }) +
      event({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'B says so.' } }) +
      event({ type: 'content_block_stop', index: 1 }) +
      event({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }) +
      event({ type: 'message_stop' });
    const parts = await decode(body);
    const annotations = parts.flatMap((part) => (part.type === 'delta' ? (part.delta.annotations ?? []) : []));
    expect(annotations).toEqual([
      {
        type: 'url_citation',
        url_citation: { url: 'https://b.example/', title: 'B', content: 'B says', start_index: 4, end_index: 14 },
      },
    ]);
  });
});
