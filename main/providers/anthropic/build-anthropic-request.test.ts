import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../shared/api/index.js';
import { buildAnthropicRequest, type AnthropicRequestOptions } from './build-anthropic-request.js';
import { planAnthropicThinking } from './plan-anthropic-thinking.js';

const options: AnthropicRequestOptions = {
  model: 'claude-sonnet-4-20250514',
  modelLabel: 'claude/claude-sonnet-4-20250514',
  providerId: 'claude',
  capabilities: { images: true, thinking: true },
  stream: true,
};

const tools: ChatRequest['tools'] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
  { type: 'function', function: { name: 'get_time' } },
];

function request(extra: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model: 'claude/claude-sonnet-4-20250514',
    stream: true,
    messages: [{ role: 'user', content: 'Hi' }],
    ...extra,
  };
}

describe('buildAnthropicRequest', () => {
  it('builds a minimal streamed request with the default max_tokens', () => {
    expect(buildAnthropicRequest(request(), options)).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: true,
    });
    expect(buildAnthropicRequest(request(), { ...options, stream: false })).not.toHaveProperty('stream');
  });

  it('maps max_tokens, max_completion_tokens (preferred), stop, top_p and user; drops what Anthropic lacks', () => {
    const body = buildAnthropicRequest(
      request({
        max_tokens: 100,
        max_completion_tokens: 200,
        stop: 'END',
        top_p: 0.9,
        user: 'user-42',
        seed: 7,
        presence_penalty: 0.5,
        frequency_penalty: 0.5,
        response_format: { type: 'json_object' },
      }),
      options,
    );
    expect(body).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 200,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stop_sequences: ['END'],
      top_p: 0.9,
      metadata: { user_id: 'user-42' },
      stream: true,
    });
    expect(buildAnthropicRequest(request({ stop: ['a', '', 'b'] }), options).stop_sequences).toEqual(['a', 'b']);
  });

  it.each([
    [0, 0],
    [0.7, 0.7],
    [1, 1],
    [1.5, 1],
    [2, 1],
  ])('clamps temperature %f to %f (Anthropic takes 0–1)', (ours, theirs) => {
    expect(buildAnthropicRequest(request({ temperature: ours }), options).temperature).toBe(theirs);
  });

  it('converts tools to input_schema, with an empty object schema for a tool without parameters', () => {
    expect(buildAnthropicRequest(request({ tools }), options).tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather of a city',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
      { name: 'get_time', input_schema: { type: 'object', properties: {} } },
    ]);
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
    ['none', { type: 'none' }],
    [
      { type: 'function', function: { name: 'get_time' } },
      { type: 'tool', name: 'get_time' },
    ],
  ] as const)('maps tool_choice %j', (choice, expected) => {
    expect(buildAnthropicRequest(request({ tools, tool_choice: choice }), options).tool_choice).toEqual(expected);
  });

  it('maps parallel_tool_calls: false to disable_parallel_tool_use, and sends no tool_choice without tools', () => {
    expect(buildAnthropicRequest(request({ tools, parallel_tool_calls: false }), options).tool_choice).toEqual({
      type: 'auto',
      disable_parallel_tool_use: true,
    });
    expect(
      buildAnthropicRequest(request({ tools, tool_choice: 'required', parallel_tool_calls: false }), options)
        .tool_choice,
    ).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(buildAnthropicRequest(request({ tools, parallel_tool_calls: true }), options)).not.toHaveProperty(
      'tool_choice',
    );
    expect(buildAnthropicRequest(request({ tool_choice: 'auto' }), options)).not.toHaveProperty('tool_choice');
  });

  it('turns reasoning into thinking; temperature, low top_p and forced tool choice are dropped with it', () => {
    const body = buildAnthropicRequest(
      request({ reasoning: { effort: 'high' }, temperature: 0.2, top_p: 0.5, tools, tool_choice: 'required' }),
      options,
    );
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
    expect(body.max_tokens).toBe(16384 + 4096);
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_p');
    expect(body.tool_choice).toEqual({ type: 'auto' });
    expect(buildAnthropicRequest(request({ reasoning: { effort: 'low' }, top_p: 0.97 }), options).top_p).toBe(0.97);
  });

  it('sends no thinking for a model that cannot think, or when reasoning is disabled', () => {
    const noThinking = { ...options, capabilities: { images: true, thinking: false } };
    expect(buildAnthropicRequest(request({ reasoning: { effort: 'high' } }), noThinking)).not.toHaveProperty(
      'thinking',
    );
    expect(buildAnthropicRequest(request({ reasoning: { enabled: false } }), options)).not.toHaveProperty('thinking');
  });

  it('turns thinking off when the last tool turn came back without its thinking block', () => {
    const messages: ChatRequest['messages'] = [
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
    ];
    const withoutThinking = buildAnthropicRequest(request({ messages, tools, reasoning: { effort: 'low' } }), options);
    expect(withoutThinking).not.toHaveProperty('thinking');
    expect(withoutThinking.max_tokens).toBe(4096);

    messages[1]!.reasoning_details = [
      { type: 'reasoning.text', text: 'Call it.', signature: 'sig', format: 'anthropic-claude-v1', index: 0 },
    ];
    const withThinking = buildAnthropicRequest(request({ messages, tools, reasoning: { effort: 'low' } }), options);
    expect(withThinking.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(withThinking.messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'Call it.', signature: 'sig' });
  });
});

describe('planAnthropicThinking', () => {
  const plan = (reasoning: ChatRequest['reasoning'], maxTokens?: number) =>
    planAnthropicThinking({ reasoning, max_tokens: maxTokens }, true);

  it('uses effort budgets plus room for the answer when the caller gives no max_tokens', () => {
    expect(plan(undefined)).toEqual({ maxTokens: 4096 });
    expect(plan({})).toEqual({ maxTokens: 8192 + 4096, budgetTokens: 8192 });
    expect(plan({ exclude: true })).toEqual({ maxTokens: 8192 + 4096, budgetTokens: 8192 });
    expect(plan({ effort: 'minimal' })).toEqual({ maxTokens: 1024 + 4096, budgetTokens: 1024 });
    expect(plan({ effort: 'low' })).toEqual({ maxTokens: 2048 + 4096, budgetTokens: 2048 });
    expect(plan({ max_tokens: 3000 })).toEqual({ maxTokens: 3000 + 4096, budgetTokens: 3000 });
    expect(plan({ max_tokens: 10 })).toEqual({ maxTokens: 1024 + 4096, budgetTokens: 1024 });
  });

  it('fits the budget under the caller max_tokens, and gives up thinking when 1024 does not fit', () => {
    expect(plan({ effort: 'high' }, 10_000)).toEqual({ maxTokens: 10_000, budgetTokens: 8000 });
    expect(plan({ effort: 'low' }, 2000)).toEqual({ maxTokens: 2000, budgetTokens: 1024 });
    expect(plan({ max_tokens: 50_000 }, 8000)).toEqual({ maxTokens: 8000, budgetTokens: 7999 });
    expect(plan({ effort: 'high' }, 1024)).toEqual({ maxTokens: 1024 });
  });
});

describe('parameters beyond the interface', () => {
  const hi: ChatRequest['messages'] = [{ role: 'user', content: 'hi' }];
  const base = { model: 'claude/x', messages: hi, stream: true } as ChatRequest;

  it('passes top_k, and turns response_format json_schema into structured output', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const body = buildAnthropicRequest(
      { ...base, top_k: 40, response_format: { type: 'json_schema', json_schema: { name: 'c', schema } } },
      options,
    );
    expect(body.top_k).toBe(40);
    expect(body.output_config).toEqual({ format: { type: 'json_schema', schema } });
  });

  it('thinks at every effort but none, xhigh with the largest budget', () => {
    expect(buildAnthropicRequest({ ...base, reasoning: { effort: 'none' } }, options).thinking).toBeUndefined();
    const xhigh = buildAnthropicRequest({ ...base, reasoning: { effort: 'xhigh' } }, options).thinking;
    const high = buildAnthropicRequest({ ...base, reasoning: { effort: 'high' } }, options).thinking;
    expect(xhigh!.budget_tokens).toBeGreaterThan(high!.budget_tokens);
  });

  it('offers only the allowed tools of an allowed_tools choice, and makes one required when it says so', () => {
    const twoTools: ChatRequest['tools'] = [
      { type: 'function', function: { name: 'a', parameters: { type: 'object', properties: {} } } },
      { type: 'function', function: { name: 'b', parameters: { type: 'object', properties: {} } } },
    ];
    const body = buildAnthropicRequest(
      {
        ...base,
        tools: twoTools,
        tool_choice: {
          type: 'allowed_tools',
          allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'b' } }] },
        },
      },
      options,
    );
    expect(body.tools!.map((tool) => tool.name)).toEqual(['b']);
    expect(body.tool_choice).toEqual({ type: 'any' });
  });

  it('ignores what Anthropic cannot do, unless the caller requires every parameter: then a 400 naming them', () => {
    const body = buildAnthropicRequest({ ...base, logit_bias: { '1': 2 }, n: 2 } as ChatRequest, options);
    expect(body).not.toHaveProperty('logit_bias');
    expect(body).not.toHaveProperty('n');
    expect(() =>
      buildAnthropicRequest(
        { ...base, logit_bias: { '1': 2 }, n: 2, provider: { require_parameters: true } } as ChatRequest,
        options,
      ),
    ).toThrow('Provider "claude" (kind anthropic) does not support the parameters "logit_bias", "n"');
    expect(() =>
      buildAnthropicRequest({ ...base, top_k: 5, provider: { require_parameters: true } } as ChatRequest, options),
    ).not.toThrow();
  });

  it('offers Anthropic’s web search tool for web_search_options, after the functions, with the location', () => {
    const body = buildAnthropicRequest(
      request({
        tools,
        web_search_options: {
          search_context_size: 'low',
          user_location: { type: 'approximate', approximate: { city: 'Lyon', country: 'FR' } },
        },
      }),
      options,
    );
    expect(body.tools!.map((tool) => tool.name)).toEqual(['get_weather', 'get_time', 'web_search']);
    expect(body.tools![2]).toEqual({
      type: 'web_search_20250305',
      name: 'web_search',
      user_location: { type: 'approximate', city: 'Lyon', country: 'FR' },
    });
    expect(buildAnthropicRequest(request({ web_search_options: {} }), options).tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search' },
    ]);
    const older = { ...options, model: 'claude-3-opus-20240229' };
    expect(buildAnthropicRequest(request({ web_search_options: {} }), older)).not.toHaveProperty('tools');
  });
});
