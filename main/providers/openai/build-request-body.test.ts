import { describe, expect, it } from 'vitest';
import {
  chatRequestSchema,
  forwardedFields,
  gatewayConsumedFields,
  type ChatRequest,
} from '../../../shared/api/index.js';
import { buildOpenAIRequestBody } from './build-request-body.js';

const toolRound: ChatRequest = {
  model: 'openai/gpt-4o',
  stream: true,
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
    {
      role: 'assistant',
      content: null,
      reasoning: 'I should call the tool.',
      reasoning_details: [{ type: 'reasoning.text', text: 'I should call the tool.', format: 'unknown', index: 0 }],
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
  ],
  tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
  tool_choice: 'auto',
  parallel_tool_calls: true,
  temperature: 0.3,
  top_p: 0.9,
  max_tokens: 100,
  stop: ['END'],
  seed: 7,
  presence_penalty: 0.1,
  frequency_penalty: 0.2,
  response_format: { type: 'json_object' },
  user: 'u-1',
  reasoning: { effort: 'high', max_tokens: 2000 },
  stream_options: { include_usage: false },
};

describe('buildOpenAIRequestBody', () => {
  it('forwards the allow-listed fields, renames the model and always asks for usage when streaming', () => {
    const body = buildOpenAIRequestBody(toolRound, { upstreamModel: 'gpt-4o', openRouterLike: false });
    expect(body).toMatchObject({
      model: 'gpt-4o',
      tools: toolRound.tools,
      tool_choice: 'auto',
      parallel_tool_calls: true,
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 100,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      response_format: { type: 'json_object' },
      user: 'u-1',
      stream: true,
      stream_options: { include_usage: true },
      reasoning_effort: 'high',
    });
    expect(body).not.toHaveProperty('reasoning');
  });

  it('sends messages as given, minus OpenRouter reasoning fields for plain OpenAI-compatible hosts', () => {
    const body = buildOpenAIRequestBody(toolRound, { upstreamModel: 'gpt-4o', openRouterLike: false });
    const messages = body.messages as Record<string, unknown>[];
    expect(messages).toHaveLength(4);
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: toolRound.messages[2]!.tool_calls,
    });
    expect(messages[3]).toBe(toolRound.messages[3]);
  });

  it('passes reasoning through to OpenRouter-like hosts', () => {
    const body = buildOpenAIRequestBody(toolRound, {
      upstreamModel: 'anthropic/claude-sonnet-4',
      openRouterLike: true,
    });
    expect(body.model).toBe('anthropic/claude-sonnet-4');
    expect(body.reasoning).toEqual({ effort: 'high', max_tokens: 2000 });
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(body.messages).toBe(toolRound.messages);
  });

  it('leaves out what the caller did not set, and stream_options when not streaming', () => {
    const body = buildOpenAIRequestBody(
      { model: 'x/y', stream: false, messages: [{ role: 'user', content: 'hi' }], models: ['x/z'] },
      { upstreamModel: 'y', openRouterLike: false },
    );
    expect(body).toEqual({ model: 'y', messages: [{ role: 'user', content: 'hi' }], stream: false });
  });
});

describe('the one list of what the gateway consumes and what it forwards', () => {
  it('forwards every request field except those the gateway acts on itself', () => {
    expect(forwardedFields).toEqual([
      'tools',
      'tool_choice',
      'parallel_tool_calls',
      'temperature',
      'top_p',
      'max_tokens',
      'max_completion_tokens',
      'stop',
      'seed',
      'presence_penalty',
      'frequency_penalty',
      'response_format',
      'user',
    ]);
    expect([...gatewayConsumedFields, ...forwardedFields].sort()).toEqual(Object.keys(chatRequestSchema.shape).sort());
  });
});
