import { describe, expect, it } from 'vitest';
import { usageOf } from '../test-support.js';
import { convertOpenAIUsage } from './convert-usage.js';

describe('convertOpenAIUsage', () => {
  it('adds reasoning tokens to completion tokens when the total says the upstream left them out (xAI)', () => {
    // grok-3-mini, recorded: 291 + 26 + reasoning 196 = 513.
    const usage = convertOpenAIUsage({
      prompt_tokens: 291,
      completion_tokens: 26,
      total_tokens: 513,
      prompt_tokens_details: { cached_tokens: 290 },
      completion_tokens_details: { reasoning_tokens: 196 },
    });
    expect(usage).toEqual(usageOf(291, 222, { cached: 290, reasoning: 196 }));
  });

  it('keeps completion tokens that already include the reasoning (OpenAI, Groq)', () => {
    const usage = convertOpenAIUsage({ ...usageOf(304, 49, { reasoning: 23 }) }); // total 353
    expect(usage).toMatchObject({ prompt_tokens: 304, completion_tokens: 49, total_tokens: 353 });
  });

  it('leaves counts alone when the total matches neither reading, or is missing', () => {
    const odd = {
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 40,
      completion_tokens_details: { reasoning_tokens: 7 },
    };
    expect(convertOpenAIUsage(odd).completion_tokens).toBe(5);
    const noTotal = { prompt_tokens: 10, completion_tokens: 5, completion_tokens_details: { reasoning_tokens: 7 } };
    expect(convertOpenAIUsage(noTotal)).toMatchObject({ completion_tokens: 5, total_tokens: 15 });
  });
});
