import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api/index.js';
import { ChunkAssembler } from './chunk-assembler.js';

const identity = { id: 'gen-1', created: 1730000000, model: 'p/m', provider: 'p' };
const usage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 };

describe('ChunkAssembler', () => {
  it('adds the role to the first chunk and holds the finish chunk until usage arrived', () => {
    const chunks = new ChunkAssembler(identity);
    const first = chunks.accept({ type: 'delta', index: 0, delta: { content: 'Hi' } });
    expect(first).toEqual([
      {
        id: 'gen-1',
        object: 'chat.completion.chunk',
        created: 1730000000,
        model: 'p/m',
        provider: 'p',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }],
      },
    ]);
    expect(
      chunks.accept({ type: 'delta', index: 0, delta: {}, finish_reason: 'stop', native_finish_reason: 'end_turn' }),
    ).toEqual([]);
    expect(chunks.accept({ type: 'usage', usage })).toEqual([]);
    const [last] = chunks.finish();
    expect(last).toMatchObject({
      id: 'gen-1',
      choices: [{ index: 0, delta: {}, finish_reason: 'stop', native_finish_reason: 'end_turn' }],
      usage,
    });
    expect(chunks.finishReason).toBe('stop');
    expect(chunks.usage).toEqual(usage);
  });

  it('releases a held finish chunk when more deltas follow it', () => {
    const chunks = new ChunkAssembler(identity);
    chunks.accept({ type: 'delta', index: 0, delta: { content: 'a' }, finish_reason: 'stop' });
    const out = chunks.accept({ type: 'delta', index: 0, delta: { content: 'b' } });
    expect(out.map((chunk) => chunk.choices[0]!.finish_reason)).toEqual(['stop', null]);
  });

  it('makes up the final chunk when the upstream never gave a finish reason, role included if nothing came', () => {
    const empty = new ChunkAssembler(identity);
    expect(empty.finish()[0]!.choices[0]).toEqual({
      index: 0,
      delta: { role: 'assistant' },
      finish_reason: 'stop',
      native_finish_reason: null,
    });
    const tools = new ChunkAssembler(identity);
    tools.accept({
      type: 'delta',
      index: 0,
      delta: { tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '' } }] },
    });
    expect(tools.finish()[0]!.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('ends a failed stream with OpenRouter’s error chunk', () => {
    const chunks = new ChunkAssembler(identity);
    chunks.accept({ type: 'delta', index: 0, delta: { content: 'a' } });
    const [error] = chunks.fail(new ApiError(502, 'Provider "p" failed.', { provider_name: 'p' }));
    expect(error).toEqual({
      ...identity,
      object: 'chat.completion.chunk',
      error: { code: 502, message: 'Provider "p" failed.', metadata: { provider_name: 'p' } },
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error', native_finish_reason: null }],
    });
    expect(chunks.finishReason).toBe('error');
  });
});
