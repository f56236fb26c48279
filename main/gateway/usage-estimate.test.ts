import { describe, expect, it } from 'vitest';
import { estimateUsage } from './usage-estimate.js';

describe('estimateUsage', () => {
  it('counts the prompt’s text, its tool definitions and what was generated with the o200k tokenizer', async () => {
    const plain = await estimateUsage({ messages: [{ role: 'user', content: 'Hello there, how are you today?' }] }, [
      'I am fine',
      ', thanks.',
    ]);
    // "I am fine, thanks." is 6 o200k tokens; the prompt is its 8 tokens of text, the role and the chat overhead.
    expect(plain.completion_tokens).toBe(6);
    expect(plain.prompt_tokens).toBe(8 + 1 + 3 + 3);
    expect(plain.total_tokens).toBe(plain.prompt_tokens + plain.completion_tokens);
    const withTools = await estimateUsage(
      {
        messages: [{ role: 'user', content: 'Hello there, how are you today?' }],
        tools: [
          { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
        ],
      },
      [],
    );
    expect(withTools.prompt_tokens).toBeGreaterThan(plain.prompt_tokens + 5);
    expect(withTools.completion_tokens).toBe(0);
  });
});
