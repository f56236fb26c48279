import { describe, expect, it } from 'vitest';
import { fixture, usageOf } from '../test-support.js';
import { anthropicMessageSchema } from './anthropic-api.js';
import { convertAnthropicMessage } from './convert-anthropic-message.js';

const recorded = anthropicMessageSchema.parse(JSON.parse(fixture('anthropic', 'anthropic-message.json')));

describe('convertAnthropicMessage', () => {
  it('converts text, thinking with its signature, redacted thinking, tool calls, finish reason and usage', () => {
    expect(convertAnthropicMessage(recorded, true)).toEqual({
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: "I'll look that up.",
            reasoning: 'Paris weather needs the tool.',
            reasoning_details: [
              {
                type: 'reasoning.text',
                text: 'Paris weather needs the tool.',
                signature: 'EuYBCkQYAiJAgCs1le6/Pol5Z4/JMomVOouGrWdhYNsH3ukzUECbB6iWrSQtsQuRHJID6lWV',
                format: 'anthropic-claude-v1',
                index: 0,
              },
              {
                type: 'reasoning.encrypted',
                data: 'EmwKAhgBEgyuJnqe3bkBnQB8TXoaDEz5bQfVYU8+Z7G0ZiIw',
                format: 'anthropic-claude-v1',
                index: 1,
              },
            ],
            tool_calls: [
              {
                id: 'toolu_01A09q90qw90lq917835lq9',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
              {
                id: 'toolu_01B7sd8f7s8d7f8s7d8f7s8',
                type: 'function',
                function: { name: 'get_time', arguments: '{}' },
              },
            ],
          },
          finish_reason: 'tool_calls',
          native_finish_reason: 'tool_use',
        },
      ],
      usage: usageOf(410 + 20 + 1500, 96, { cached: 1500, cacheWrite: 20 }),
    });
  });

  it('leaves reasoning out when the caller excluded it, and answers null content for tool calls only', () => {
    const message = convertAnthropicMessage(
      { ...recorded, content: recorded.content.filter((block) => block.type !== 'text') },
      false,
    ).choices[0]!.message;
    expect(message).not.toHaveProperty('reasoning');
    expect(message).not.toHaveProperty('reasoning_details');
    expect(message.content).toBeNull();
  });
});
