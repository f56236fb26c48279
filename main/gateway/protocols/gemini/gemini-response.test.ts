import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../../../shared/api/index.js';
import { decodeThoughtSignature } from './thought-signature.js';
import {
  attachSignature,
  convertChatCompletion,
  functionCallPart,
  geminiFinishReason,
  usageMetadataOf,
} from './gemini-response.js';
import { chatCompletion, tokenUsage } from '../test-support.js';

const details = [
  { type: 'reasoning.text', text: 'Think.', signature: 'sig-1', format: 'anthropic-claude-v1', index: 0 },
];

function completion(
  message: ChatCompletion['choices'][number]['message'],
  finish: ChatCompletion['choices'][number]['finish_reason'],
): ChatCompletion {
  const details = { prompt_tokens_details: { cached_tokens: 20 }, completion_tokens_details: { reasoning_tokens: 15 } };
  const usage = tokenUsage(100, 40, details);
  return chatCompletion(message, finish, { model: 'claude/claude-sonnet-4-5', usage });
}

describe('convertChatCompletion', () => {
  it('answers text with thoughts, usage, model and id', () => {
    const response = convertChatCompletion(
      completion({ role: 'assistant', content: 'Paris.', reasoning: 'Capital of France.' }, 'stop'),
    );
    expect(response).toEqual({
      candidates: [
        {
          content: { role: 'model', parts: [{ text: 'Capital of France.', thought: true }, { text: 'Paris.' }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 100,
        candidatesTokenCount: 25,
        thoughtsTokenCount: 15,
        cachedContentTokenCount: 20,
        totalTokenCount: 140,
      },
      modelVersion: 'claude/claude-sonnet-4-5',
      responseId: 'gen-1',
    });
  });

  it('answers tool calls as functionCall parts, the reasoning details as the first call’s signature', () => {
    const response = convertChatCompletion(
      completion(
        {
          role: 'assistant',
          content: null,
          reasoning_details: details,
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'toolu_2', type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        },
        'tool_calls',
      ),
    );
    const [first, second] = response.candidates![0]!.content.parts;
    expect(first).toMatchObject({ functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: 'toolu_1' } });
    expect(decodeThoughtSignature(first!.thoughtSignature!)).toEqual(details);
    expect(second).toEqual({ functionCall: { name: 'get_time', args: {}, id: 'toolu_2' } });
    expect(response.candidates![0]!.finishReason).toBe('STOP');
  });
});

describe('pieces', () => {
  it.each([
    ['stop', 'STOP'],
    ['tool_calls', 'STOP'],
    ['length', 'MAX_TOKENS'],
    ['content_filter', 'SAFETY'],
    ['error', 'OTHER'],
  ] as const)('finish %s → %s', (reason, expected) => {
    expect(geminiFinishReason(reason)).toBe(expected);
  });

  it('leaves out the counts that are zero', () => {
    expect(usageMetadataOf({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 })).toEqual({
      promptTokenCount: 3,
      candidatesTokenCount: 2,
      totalTokenCount: 5,
    });
  });

  it('keeps arguments that are not an object rather than lose them', () => {
    expect(functionCallPart({ id: '', name: 'f', arguments: '[1,2]' })).toEqual({
      functionCall: { name: 'f', args: { value: [1, 2] } },
    });
    expect(functionCallPart({ id: '', name: 'f', arguments: '{oops' })).toEqual({
      functionCall: { name: 'f', args: { arguments: '{oops' } },
    });
  });

  it('puts a signature on the first call, else the first part that is not a thought, else an empty text part', () => {
    const thought = { text: 'hm', thought: true };
    expect(attachSignature([thought, { text: 'a' }], details)[1]).toHaveProperty('thoughtSignature');
    expect(attachSignature([thought], details)).toEqual([thought, { text: '', thoughtSignature: expect.any(String) }]);
    expect(attachSignature([{ text: 'a' }], [])).toEqual([{ text: 'a' }]);
  });
});
