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

describe('web-search citations', () => {
  const citation = (url: string, title: string) => ({
    type: 'web_search_result_location',
    url,
    title,
    cited_text: `From ${title}.`,
    encrypted_index: 'Eo8BCio',
  });

  it('become url_citation annotations spanning the text they support', () => {
    const message = anthropicMessageSchema.parse({
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'news' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
        { type: 'text', text: 'Here is the news. ' },
        { type: 'text', text: 'Apple shipped.', citations: [citation('https://a.example/', 'A')] },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 5, server_tool_use: { web_search_requests: 1 } },
    });
    const converted = convertAnthropicMessage(message, true);
    expect(converted.choices[0]!.message.content).toBe('Here is the news. Apple shipped.');
    expect(converted.choices[0]!.message.annotations).toEqual([
      {
        type: 'url_citation',
        url_citation: { url: 'https://a.example/', title: 'A', content: 'From A.', start_index: 18, end_index: 32 },
      },
    ]);
    expect(converted.usage.server_tool_use).toEqual({ web_search_requests: 1 });
  });
});
