import { describe, expect, it } from 'vitest';
import { ApiError, type ChatCompletionChunk } from '../../../shared/api/index.js';
import { ChunkAssembler } from '../pipeline/chunk-assembler.js';
import { chatCompletionsEncoder } from './sse-output.js';

describe('chatCompletionsEncoder', () => {
  it('writes every chunk exactly as JSON.stringify would, across streams and chunk kinds', () => {
    const encoder = chatCompletionsEncoder();
    const streams = ['gen-1', 'gen-"2"\u2028'].map(
      (id) => new ChunkAssembler({ id, created: 1_700_000_000, model: 'fake/m "x"', provider: 'fake' }),
    );
    const chunks: ChatCompletionChunk[] = [];
    for (const assembler of streams) {
      chunks.push(...assembler.accept({ type: 'delta', index: 0, delta: { content: 'Hé "quoted" \n' } }));
      chunks.push(...assembler.accept({ type: 'delta', index: 0, delta: { content: '' }, finish_reason: 'stop' }));
      assembler.accept({ type: 'usage', usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } });
      chunks.push(...assembler.finish());
    }
    chunks.push(...streams[0]!.fail(new ApiError(502, 'Upstream failed.')));
    const reordered = { model: 'm', id: 'x', object: 'chat.completion.chunk', created: 1, provider: 'p', choices: [] };
    const withUndefined = { ...chunks[0]!, usage: undefined };
    for (const chunk of [...chunks, reordered as ChatCompletionChunk, withUndefined]) {
      expect(encoder.chunk(chunk)).toBe(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    expect(chunks.length).toBeGreaterThan(4);
  });
});
