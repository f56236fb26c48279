import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../shared/api/index.js';
import { buildGeminiRequest, planGeminiThinking, type GeminiRequestOptions } from './build-gemini-request.js';

const options: GeminiRequestOptions = {
  model: 'gemini-2.5-flash',
  modelLabel: 'gemini/gemini-2.5-flash',
  providerId: 'gemini',
  capabilities: { images: true, thinking: true },
};

const tools: ChatRequest['tools'] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: {
        type: 'object',
        additionalProperties: false,
        properties: { city: { type: 'string' } },
        required: ['city'],
      },
    },
  },
  { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
];

function request(extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'gemini/gemini-2.5-flash', stream: true, messages: [{ role: 'user', content: 'Hi' }], ...extra };
}

describe('buildGeminiRequest', () => {
  it('builds a minimal request without generationConfig', () => {
    expect(buildGeminiRequest(request(), options)).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it('maps sampling fields to generationConfig; temperature travels unchanged (Gemini takes 0–2 too)', () => {
    expect(
      buildGeminiRequest(
        request({
          temperature: 1.7,
          top_p: 0.9,
          max_tokens: 100,
          max_completion_tokens: 200,
          stop: ['END', ''],
          seed: 7,
          presence_penalty: 0.5,
          frequency_penalty: -0.5,
          response_format: { type: 'json_object' },
          parallel_tool_calls: false,
        }),
        options,
      ).generationConfig,
    ).toEqual({
      temperature: 1.7,
      topP: 0.9,
      maxOutputTokens: 200,
      stopSequences: ['END'],
      seed: 7,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      responseMimeType: 'application/json',
    });
  });

  it('converts a json_schema response format to responseSchema', () => {
    const config = buildGeminiRequest(
      request({
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'x',
            schema: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } },
          },
        },
      }),
      options,
    ).generationConfig;
    expect(config).toEqual({
      responseMimeType: 'application/json',
      responseSchema: { type: 'object', properties: { a: { type: 'string' } } },
    });
  });

  it('declares tools in Gemini schema form, without parameters for a tool that takes none', () => {
    expect(buildGeminiRequest(request({ tools }), options).tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather of a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
          { name: 'get_time' },
        ],
      },
    ]);
  });

  it.each([
    ['auto', { mode: 'AUTO' }],
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
    [
      { type: 'function', function: { name: 'get_time' } },
      { mode: 'ANY', allowedFunctionNames: ['get_time'] },
    ],
  ] as const)('maps tool_choice %j', (choice, expected) => {
    expect(buildGeminiRequest(request({ tools, tool_choice: choice }), options).toolConfig).toEqual({
      functionCallingConfig: expected,
    });
  });

  it('sends thinkingConfig for reasoning, and none for a model that cannot think', () => {
    expect(buildGeminiRequest(request({ reasoning: { effort: 'high' } }), options).generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: 24576, includeThoughts: true },
    });
    expect(
      buildGeminiRequest(request({ reasoning: { effort: 'high' } }), {
        ...options,
        capabilities: { images: true, thinking: false },
      }),
    ).not.toHaveProperty('generationConfig');
  });
});

describe('planGeminiThinking', () => {
  it.each([
    [undefined, undefined],
    [{}, { thinkingBudget: -1, includeThoughts: true }],
    [{ enabled: true }, { thinkingBudget: -1, includeThoughts: true }],
    [{ effort: 'low' }, { thinkingBudget: 1024, includeThoughts: true }],
    [{ effort: 'medium' }, { thinkingBudget: 8192, includeThoughts: true }],
    [
      { max_tokens: 3000, effort: 'high' },
      { thinkingBudget: 3000, includeThoughts: true },
    ],
    [
      { effort: 'high', exclude: true },
      { thinkingBudget: 24576, includeThoughts: false },
    ],
    [{ enabled: false }, { thinkingBudget: 0 }],
  ] as const)('%j → %j', (reasoning, expected) => {
    expect(planGeminiThinking(reasoning as ChatRequest['reasoning'], true)).toEqual(expected);
  });
});

describe('parameters beyond the interface', () => {
  const base = { model: 'gemini/x', messages: [{ role: 'user', content: 'hi' }], stream: true } as ChatRequest;

  it('asks for log probabilities with logprobs, and for top alternatives with top_logprobs', () => {
    expect(buildGeminiRequest({ ...base, logprobs: true, top_logprobs: 3 }, options).generationConfig).toMatchObject({
      responseLogprobs: true,
      logprobs: 3,
    });
    expect(
      buildGeminiRequest({ ...base, top_logprobs: 3 }, options).generationConfig?.responseLogprobs,
    ).toBeUndefined();
  });

  it('passes top_k and n as topK and candidateCount', () => {
    expect(buildGeminiRequest({ ...base, top_k: 20, n: 3 }, options).generationConfig).toMatchObject({
      topK: 20,
      candidateCount: 3,
    });
  });

  it('turns effort none off, and gives xhigh the largest budget', () => {
    expect(planGeminiThinking({ effort: 'none' }, true)).toEqual({ thinkingBudget: 0 });
    expect(planGeminiThinking({ effort: 'xhigh' }, true)!.thinkingBudget).toBeGreaterThan(
      planGeminiThinking({ effort: 'high' }, true)!.thinkingBudget!,
    );
  });

  it('offers only the allowed tools and calls one of them when the mode is required', () => {
    const body = buildGeminiRequest(
      {
        ...base,
        tools: [
          { type: 'function', function: { name: 'a' } },
          { type: 'function', function: { name: 'b' } },
        ],
        tool_choice: {
          type: 'allowed_tools',
          allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'a' } }] },
        },
      },
      options,
    );
    expect(body.tools).toEqual([{ functionDeclarations: [expect.objectContaining({ name: 'a' })] }]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
  });

  it('refuses a parameter Gemini cannot honour when the caller requires every parameter', () => {
    expect(() =>
      buildGeminiRequest(
        { ...base, logit_bias: { '1': 1 }, provider: { require_parameters: true } } as ChatRequest,
        options,
      ),
    ).toThrow('Provider "gemini" (kind google) does not support the parameter "logit_bias"');
  });

  it('grounds in Google Search for web_search_options, only without function tools', () => {
    expect(buildGeminiRequest(request({ web_search_options: {} }), options).tools).toEqual([{ googleSearch: {} }]);
    expect(buildGeminiRequest(request({ tools, web_search_options: {} }), options).tools).toEqual([
      { functionDeclarations: [expect.objectContaining({ name: 'get_weather' }), expect.anything()] },
    ]);
    const older = { ...options, model: 'gemini-1.5-flash' };
    expect(buildGeminiRequest(request({ web_search_options: {} }), older)).not.toHaveProperty('tools');
  });
});
