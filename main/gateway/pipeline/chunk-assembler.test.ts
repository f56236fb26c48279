import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api/index.js';
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

  it('sends one terminal chunk per choice when the upstream repeats the finish or sends more after it', () => {
    const chunks = new ChunkAssembler(identity);
    const reasoning = { reasoning: ' to respond' };
    chunks.accept({ type: 'delta', index: 0, delta: { reasoning: 'We need' } });
    // OpenRouter: the last reasoning delta with finish_reason "length", then an empty delta with it again.
    expect(
      chunks.accept({
        type: 'delta',
        index: 0,
        delta: reasoning,
        finish_reason: 'length',
        native_finish_reason: 'length',
      }),
    ).toEqual([]);
    const out = chunks.accept({
      type: 'delta',
      index: 0,
      delta: {},
      finish_reason: 'length',
      native_finish_reason: 'length',
    });
    expect(out.map((chunk) => chunk.choices)).toEqual([[{ index: 0, delta: reasoning, finish_reason: null }]]);
    // Text after a finish: the finish moves to the last chunk.
    expect(chunks.accept({ type: 'delta', index: 0, delta: { content: 'b' } })).toEqual([]);
    const [last, ...rest] = chunks.finish();
    expect(rest).toEqual([]);
    expect(last!.choices).toEqual([
      { index: 0, delta: { content: 'b' }, finish_reason: 'length', native_finish_reason: 'length' },
    ]);
  });

  it('releases a choice’s finish when another choice continues, and never finishes it twice', () => {
    const chunks = new ChunkAssembler(identity);
    chunks.accept({ type: 'delta', index: 0, delta: { content: 'a' }, finish_reason: 'stop' });
    const released = chunks.accept({ type: 'delta', index: 1, delta: { content: 'b' } });
    expect(released.map((chunk) => chunk.choices[0])).toMatchObject([
      { index: 0, finish_reason: 'stop' },
      { index: 1, finish_reason: null },
    ]);
    expect(chunks.accept({ type: 'delta', index: 0, delta: {}, finish_reason: 'stop' })).toEqual([]);
    expect(chunks.accept({ type: 'delta', index: 0, delta: { content: 'late' } })).toMatchObject([
      { choices: [{ index: 0, delta: { content: 'late' }, finish_reason: null }] },
    ]);
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

  it('ends a stream that failed after its finish with one terminal chunk: the error chunk, with the usage', () => {
    const chunks = new ChunkAssembler(identity);
    chunks.accept({ type: 'delta', index: 0, delta: { reasoning: 'We' }, finish_reason: 'length' });
    chunks.accept({ type: 'usage', usage });
    const out = chunks.fail(new ApiError(502, 'Provider "p" reported an error: Token limit reached'));
    expect(out.map((chunk) => chunk.choices)).toEqual([
      [{ index: 0, delta: { role: 'assistant', reasoning: 'We' }, finish_reason: null }],
      [{ index: 0, delta: { content: '' }, finish_reason: 'error', native_finish_reason: null }],
    ]);
    expect(out[1]).toMatchObject({ error: { code: 502 }, usage });
    expect(chunks.finishReason).toBe('error');
  });
});
