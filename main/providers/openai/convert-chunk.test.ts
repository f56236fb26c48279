import { describe, expect, it } from 'vitest';
import { OpenAIChunkConverter } from './convert-chunk.js';
import { upstreamChunkSchema, type UpstreamChunk } from './upstream-schemas.js';

function toolChunk(...toolCalls: object[]): UpstreamChunk {
  return { choices: [{ index: 0, delta: { tool_calls: toolCalls } }] } as UpstreamChunk;
}

function toolDeltas(converter: OpenAIChunkConverter, chunk: UpstreamChunk) {
  return converter.convert(chunk).flatMap((part) => (part.type === 'delta' ? (part.delta.tool_calls ?? []) : []));
}

describe('OpenAIChunkConverter tool calls', () => {
  it('strips id, type and name that a server repeats on every fragment', () => {
    const converter = new OpenAIChunkConverter();
    toolDeltas(
      converter,
      toolChunk({ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a"' } }),
    );
    expect(
      toolDeltas(
        converter,
        toolChunk({ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: ':1}' } }),
      ),
    ).toEqual([{ index: 0, function: { arguments: ':1}' } }]);
  });

  it('makes up an id for a first fragment without one, and indexes calls that have none', () => {
    let counter = 0;
    const converter = new OpenAIChunkConverter(() => `gen_${++counter}`);
    expect(toolDeltas(converter, toolChunk({ function: { name: 'a', arguments: { x: 1 } } }))).toEqual([
      { index: 0, id: 'gen_1', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
    ]);
    expect(toolDeltas(converter, toolChunk({ id: 'c2', function: { name: 'b', arguments: '{}' } }))).toEqual([
      { index: 1, id: 'c2', type: 'function', function: { name: 'b', arguments: '{}' } },
    ]);
  });

  it('sends a name that arrives after the id once, in a later fragment', () => {
    const converter = new OpenAIChunkConverter();
    expect(toolDeltas(converter, toolChunk({ index: 0, id: 'c1', type: 'function' }))).toEqual([
      { index: 0, id: 'c1', type: 'function', function: { name: '', arguments: '' } },
    ]);
    expect(toolDeltas(converter, toolChunk({ index: 0, function: { name: 'late', arguments: '{' } }))).toEqual([
      { index: 0, function: { name: 'late', arguments: '{' } },
    ]);
  });

  it('drops empty chunks and passes refusals on as refusals', () => {
    const converter = new OpenAIChunkConverter();
    expect(converter.convert({ choices: [{ index: 0, delta: { content: '' } }] } as UpstreamChunk)).toEqual([]);
    expect(converter.convert({ choices: [{ index: 0, delta: { refusal: 'I cannot.' } }] } as UpstreamChunk)).toEqual([
      { type: 'delta', index: 0, delta: { refusal: 'I cannot.' } },
    ]);
  });
});

describe('OpenAIChunkConverter content parts', () => {
  it('reads Mistral’s content-part arrays: thinking parts as reasoning, text parts as content', () => {
    const converter = new OpenAIChunkConverter();
    const thinking = {
      choices: [
        {
          index: 0,
          delta: {
            role: 'assistant',
            content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'The user is asking' }] }],
          },
          finish_reason: null,
        },
      ],
    };
    const text = { choices: [{ index: 0, delta: { content: [{ type: 'text', text: '2 + 2 = 4' }] } }] };
    expect(converter.convert(upstreamChunkSchema.parse(thinking))).toEqual([
      { type: 'delta', index: 0, delta: { reasoning: 'The user is asking' } },
    ]);
    expect(converter.convert(upstreamChunkSchema.parse(text))).toEqual([
      { type: 'delta', index: 0, delta: { content: '2 + 2 = 4' } },
    ]);
  });

  it('ignores content parts of types it does not know', () => {
    const chunk = { choices: [{ index: 0, delta: { content: [{ type: 'reference', reference_ids: [1] }] } }] };
    expect(new OpenAIChunkConverter().convert(upstreamChunkSchema.parse(chunk))).toEqual([]);
  });
});
