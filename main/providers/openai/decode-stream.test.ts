import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../../shared/api/index.js';
import type { StreamPart } from '../adapter.js';
import { redactorFor } from '../http/redact.js';
import { decodeSseEvents } from '../http/upstream-http.js';
import { expectSplitsAgree, failedStream, fixture, rejection, sseEvents, streamed, usageOf } from '../test-support.js';
import { decodeOpenAIStream } from './decode-stream.js';

const context = { providerId: 'up', secrets: redactorFor('sk-upstream-secret-123') };

async function decode(text: string, size = text.length): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of decodeOpenAIStream(sseEvents(text, context.providerId, size), context)) parts.push(part);
  return parts;
}

function decodeError(text: string, seen: StreamPart[] = []): Promise<ApiError> {
  return rejection(async () => {
    for await (const part of decodeOpenAIStream(sseEvents(text, context.providerId), context)) seen.push(part);
  });
}

describe('decodeOpenAIStream', () => {
  it('decodes a text stream, finish reason and the usage chunk with empty choices', async () => {
    const parts = await decode(fixture('openai', 'openai-text.sse.txt'));
    expect(streamed(parts).content).toBe('Hello, wörld! 👋');
    expect(parts.at(-2)).toEqual({
      type: 'delta',
      index: 0,
      delta: {},
      finish_reason: 'stop',
      native_finish_reason: 'stop',
    });
    expect(parts.at(-1)).toEqual({
      type: 'usage',
      usage: usageOf(19, 5, { cached: 0, reasoning: 0 }),
    });
    // The role-only first chunk carries nothing: the gateway adds the role itself.
    expect(parts.every((part) => part.type === 'usage' || !('role' in part.delta))).toBe(true);
  });

  it('decodes bytes split inside multi-byte characters', async () => {
    const bytes = new TextEncoder().encode(fixture('openai', 'openai-text.sse.txt'));
    async function* byteByByte() {
      for (let index = 0; index < bytes.length; index += 1) yield bytes.subarray(index, index + 1);
    }
    const parts: StreamPart[] = [];
    for await (const part of decodeOpenAIStream(decodeSseEvents(byteByByte(), context.providerId), context))
      parts.push(part);
    expect(streamed(parts).content).toBe('Hello, wörld! 👋');
  });

  it('gives the same parts however the body is split', async () => {
    await expectSplitsAgree(decode, fixture('openai', 'openai-parallel-tool-calls.sse.txt'), [1, 3, 17, 100]);
  });

  it('keeps the OpenAI tool-call convention for two parallel calls streamed in fragments', async () => {
    const parts = await decode(fixture('openai', 'openai-parallel-tool-calls.sse.txt'));
    const toolCalls = streamed(parts).toolCalls;
    expect(toolCalls[0]).toEqual({
      index: 0,
      id: 'call_k2LPzMh8GdW3',
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(toolCalls[1]).toEqual({ index: 0, function: { arguments: '{"ci' } });
    expect(toolCalls[4]).toEqual({
      index: 1,
      id: 'call_9xQe4TfV1bN0',
      type: 'function',
      function: { name: 'get_time', arguments: '' },
    });
    expect(streamed(parts).argumentsOf(0)).toEqual({ city: 'Paris' });
    expect(streamed(parts).argumentsOf(1)).toEqual({ tz: 'Europe/Paris' });
    const finish = parts.find((part) => part.type === 'delta' && part.finish_reason);
    expect(finish).toMatchObject({ finish_reason: 'tool_calls', native_finish_reason: 'tool_calls' });
    expect(parts.at(-1)).toMatchObject({ type: 'usage', usage: { prompt_tokens_details: { cached_tokens: 64 } } });
  });

  it('reads reasoning_content as reasoning, skips comments, and takes usage from the finish chunk', async () => {
    const parts = await decode(fixture('openai', 'deepseek-reasoning.sse.txt'));
    expect(streamed(parts).reasoning).toBe('The user asks 2+2. That is 4.');
    expect(streamed(parts).content).toBe('4');
    expect(parts.at(-1)).toEqual({
      type: 'usage',
      usage: usageOf(13, 41, { cached: 0, reasoning: 38 }),
    });
  });

  it('passes reasoning_details through, keeps native_finish_reason and the upstream cost', async () => {
    const parts = await decode(fixture('openai', 'openrouter-reasoning-details.sse.txt'));
    expect(streamed(parts).details).toEqual([
      { type: 'reasoning.text', text: 'Let me think.', format: 'anthropic-claude-v1', index: 0 },
      { type: 'reasoning.text', signature: 'EqQBCkgIBxABGAIiQJ9v', format: 'anthropic-claude-v1', index: 0 },
    ]);
    expect(parts.find((part) => part.type === 'delta' && part.finish_reason)).toMatchObject({
      finish_reason: 'stop',
      native_finish_reason: 'end_turn',
    });
    expect(parts.at(-1)).toMatchObject({ type: 'usage', usage: { cost: 0.00051 } });
  });

  it('turns a whole Ollama tool call with finish_reason "stop" into a tool_calls finish', async () => {
    const parts = await decode(fixture('openai', 'ollama-tool-call.sse.txt'));
    expect(parts[0]).toEqual({
      type: 'delta',
      index: 0,
      delta: {
        tool_calls: [
          {
            index: 0,
            id: 'call_ab12cd34',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
    });
    expect(parts[1]).toMatchObject({ finish_reason: 'tool_calls', native_finish_reason: 'stop' });
  });

  it('throws a 502 ApiError for an error chunk, after the parts that came before it', async () => {
    const { before, error } = await failedStream(decodeError, fixture('openai', 'openrouter-mid-stream-error.sse.txt'));
    expect(before.content).toBe('Once upon');
    expect(error.status).toBe(502);
    expect(error.message).toContain('Provider returned error');
    expect(error.metadata.provider_name).toBe('up');
  });

  it('passes on the usage of an error event that follows the finish, then throws its error (OpenRouter)', async () => {
    // Shape recorded from OpenRouter (minimax-m2 with max_completion_tokens 10), shortened.
    const chunk = (delta: object, finish: string | null) =>
      `data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":${JSON.stringify(delta)},` +
      `"finish_reason":${JSON.stringify(finish)}}]}\n\n`;
    const body =
      chunk({ role: 'assistant', content: '', reasoning: 'We need' }, 'length') +
      chunk({ content: '' }, 'length') +
      'data: {"id":"gen-1","error":{"code":400,"message":"Token limit reached"},"object":"chat.completion.chunk",' +
      '"choices":[{"index":0,"delta":{"content":""},"finish_reason":null}],' +
      '"usage":{"prompt_tokens":43,"completion_tokens":10,"total_tokens":53,"cost":0}}\n\ndata: [DONE]\n\n';
    const seen: StreamPart[] = [];
    const failure = await rejection(async () => {
      for await (const part of decodeOpenAIStream(sseEvents(body, context.providerId, 7), context)) seen.push(part);
    });
    expect(streamed(seen).reasoning).toBe('We need');
    expect(seen.at(-1)).toEqual({
      type: 'usage',
      usage: { prompt_tokens: 43, completion_tokens: 10, total_tokens: 53, cost: 0 },
    });
    expect(failure.message).toContain('Token limit reached');
  });

  it('throws an error event that comes before anything was generated at once', async () => {
    const body = 'data: {"error":{"code":429,"message":"Rate limited"},"usage":{"prompt_tokens":5}}\n\n';
    const error = await decodeError(body);
    expect(error.message).toContain('Rate limited');
  });

  it('throws a 502 for data that is not JSON, without echoing the provider key', async () => {
    const error = await decodeError(
      'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\ndata: {oops sk-upstream-secret-123\n\n',
    );
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/not JSON/);
    expect(JSON.stringify(error.metadata)).not.toContain('sk-upstream-secret-123');
  });

  it('throws a 502 for a JSON event that is not a chunk', async () => {
    expect((await decodeError('data: {"choices":"nope"}\n\n')).status).toBe(502);
  });

  it('treats a body without [DONE] and without finish_reason as truncated', async () => {
    const error = await decodeError('data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n');
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/truncated/);
  });

  it('accepts a body that finished but never sent [DONE], and a last event without its blank line', async () => {
    const parts = await decode(
      'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
    );
    expect(parts.at(-1)).toMatchObject({ finish_reason: 'stop' });
  });

  it('stops at [DONE] and ignores anything after it', async () => {
    const parts = await decode(
      'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\ndata: {garbage\n\n',
    );
    expect(streamed(parts).content).toBe('Hi');
  });
});
