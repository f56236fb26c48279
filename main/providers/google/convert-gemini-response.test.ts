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
                data: 'CiwBVKhc7vB+vaaq6rA==',
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
