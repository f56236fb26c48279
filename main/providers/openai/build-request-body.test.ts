import { describe, expect, it } from 'vitest';
import { chatRequestSchema, gatewayConsumedFields, type ChatRequest } from '../../../shared/api/index.js';
import { openAIParameters, openRouterParameters } from '../../../test/support/request-parameters.js';
import { buildOpenAIRequestBody } from './build-request-body.js';

/** Parameters an OpenAI-compatible upstream gets as the caller sent them. */
function samplingFields(): Partial<ChatRequest> {
  return {
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
  };
}

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
  ...samplingFields(),
  reasoning: { effort: 'high', max_tokens: 2000 },
  stream_options: { include_usage: false },
};

describe('buildOpenAIRequestBody', () => {
  it('forwards the allow-listed fields, renames the model and always asks for usage when streaming', () => {
    const body = buildOpenAIRequestBody(toolRound, { upstreamModel: 'gpt-4o', openRouterLike: false });
    expect(body).toMatchObject({
      model: 'gpt-4o',
      tools: toolRound.tools,
      ...samplingFields(),
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

describe('no silent drops', () => {
  const plain = { upstreamModel: 'm', openRouterLike: false };
  const openRouter = { upstreamModel: 'm', openRouterLike: true };
  const issueFields = { ...openAIParameters, ...openRouterParameters };

  function parsed(extra: Record<string, unknown>) {
    return chatRequestSchema.parse({
      model: 'p/m',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
      ...extra,
    });
  }

  it('forwards every field the gateway does not consume, the ones OpenAI and OpenRouter define and unknown ones', () => {
    const body = buildOpenAIRequestBody(parsed({ ...issueFields, some_future_field: { a: 1 } }), plain);
    expect(body).toMatchObject({ ...issueFields, some_future_field: { a: 1 } });
  });

  it('consumes routing and answer fields: models, provider, stream_options never travel as the caller sent them', () => {
    const request = parsed({ models: ['p/m', 'q/n'], provider: { require_parameters: true }, stream_options: {} });
    const body = buildOpenAIRequestBody(request, plain);
    expect(body).not.toHaveProperty('models');
    expect(body).not.toHaveProperty('provider');
    expect(body).not.toHaveProperty('stream_options');
  });

  it('asks for a stream, and for usage in it, as the caller of the builder says, whatever the request says', () => {
    const streamed = buildOpenAIRequestBody(parsed({}), { ...plain, stream: true });
    expect(streamed).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const whole = buildOpenAIRequestBody(toolRound, { ...plain, stream: false });
    expect(whole).toMatchObject({ stream: false });
    expect(whole).not.toHaveProperty('stream_options');
  });

  it('sends OpenRouter’s own fields to OpenRouter alone', () => {
    const request = parsed({ provider: { order: ['a'] }, transforms: ['middle-out'], plugins: [{ id: 'web' }] });
    expect(buildOpenAIRequestBody(request, plain)).not.toHaveProperty('transforms');
    expect(buildOpenAIRequestBody(request, plain)).not.toHaveProperty('plugins');
    expect(buildOpenAIRequestBody(request, openRouter)).toMatchObject({
      provider: { order: ['a'] },
      transforms: ['middle-out'],
      plugins: [{ id: 'web' }],
    });
  });

  it('spells top-level reasoning_effort (every value) as each host understands it', () => {
    for (const effort of ['none', 'minimal', 'low', 'medium', 'high', 'xhigh']) {
      const request = parsed({ reasoning_effort: effort });
      expect(buildOpenAIRequestBody(request, plain)).toMatchObject({ reasoning_effort: effort });
      expect(buildOpenAIRequestBody(request, openRouter)).toMatchObject({ reasoning: { effort } });
      expect(buildOpenAIRequestBody(request, openRouter)).not.toHaveProperty('reasoning_effort');
    }
  });

  it('keeps the gateway’s list of consumed fields in one place', () => {
    expect(gatewayConsumedFields.join()).toBe(
      'model,models,messages,stream,stream_options,reasoning,reasoning_effort,provider',
    );
  });
});
