import { describe, expect, it } from 'vitest';
import { redactorFor } from '../http/redact.js';
import { fixture, usageOf } from '../test-support.js';
import { convertGeminiResponse } from './convert-gemini-response.js';

const recorded: unknown = JSON.parse(fixture('google', 'gemini-response.json'));
const context = {
  providerId: 'gemini',
  secrets: redactorFor(),
  emitReasoning: true,
  createToolCallId: () => 'call_fixed',
};

describe('convertGeminiResponse', () => {
  it('converts text, thoughts, a call with its signature, the finish reason and usage', () => {
    expect(convertGeminiResponse(recorded, context)).toEqual({
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Let me check.',
            reasoning: 'Thinking about Paris.',
            reasoning_details: [
              { type: 'reasoning.text', text: 'Thinking about Paris.', format: 'google-gemini-v1', index: 0 },
              {
                type: 'reasoning.encrypted',
                data: 'CiwBVKhc7vB+vaaq6rA=',
                id: 'call_fixed',
                format: 'google-gemini-v1',
                index: 1,
              },
            ],
            tool_calls: [
              { id: 'call_fixed', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            ],
          },
          finish_reason: 'tool_calls',
          native_finish_reason: 'STOP',
        },
      ],
      usage: usageOf(70, 60, { cached: 0, reasoning: 40 }),
    });
  });

  it('answers an empty string for a finished answer without text or calls', () => {
    const completion = convertGeminiResponse(
      { candidates: [{ content: { parts: [] }, finishReason: 'MAX_TOKENS' }] },
      context,
    );
    expect(completion.choices[0]).toMatchObject({
      message: { role: 'assistant', content: '' },
      finish_reason: 'length',
      native_finish_reason: 'MAX_TOKENS',
    });
  });
});

describe('Google Search grounding', () => {
  it('becomes url_citation annotations over the span each source supports (byte offsets read as characters)', () => {
    // "Café is open." is 14 bytes in UTF-8 but 13 characters: the second span starts at byte 15, character 14.
    const completion = convertGeminiResponse(
      {
        candidates: [
          {
            index: 0,
            content: { role: 'model', parts: [{ text: 'Café is open. It rains.' }] },
            finishReason: 'STOP',
            groundingMetadata: {
              groundingChunks: [
                { web: { uri: 'https://vertexaisearch.example/a', title: 'cafe.example' } },
                { web: { uri: 'https://vertexaisearch.example/b', title: 'weather.example' } },
              ],
              groundingSupports: [
                { segment: { startIndex: 0, endIndex: 14, text: 'Café is open.' }, groundingChunkIndices: [0] },
                { segment: { startIndex: 15, endIndex: 24, text: 'It rains.' }, groundingChunkIndices: [1, 0] },
              ],
            },
          },
        ],
      },
      context,
    );
    const message = completion.choices[0]!.message;
    expect(message.content).toBe('Café is open. It rains.');
    const spans = (
      message.annotations as { url_citation: { title: string; start_index: number; end_index: number } }[]
    ).map(({ url_citation: { title, start_index, end_index } }) => [
      title,
      message.content!.slice(start_index, end_index),
    ]);
    expect(spans).toEqual([
      ['cafe.example', 'Café is open.'],
      ['weather.example', 'It rains.'],
      ['cafe.example', 'It rains.'],
    ]);
  });
});
