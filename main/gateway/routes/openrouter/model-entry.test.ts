import { describe, expect, it } from 'vitest';
import { toTokenPrices } from '../../../providers/index.js';
import {
  picoToUsdString,
  pricingOf,
  producesAny,
  supportedParametersOf,
  supportsAll,
  tokenizerOf,
  toOpenRouterEndpoints,
  toOpenRouterModel,
} from './model-entry.js';

describe('picoToUsdString', () => {
  it('writes USD per token as OpenRouter does: plain decimals, exact, no exponent', () => {
    expect(picoToUsdString(150_000)).toBe('0.00000015');
    expect(picoToUsdString(2_500_000)).toBe('0.0000025');
    expect(picoToUsdString(10_000_000)).toBe('0.00001');
    expect(picoToUsdString(1)).toBe('0.000000000001');
    expect(picoToUsdString(0)).toBe('0');
    expect(picoToUsdString(3_000_000_000_000)).toBe('3');
    expect(picoToUsdString(12_345_000_000_000)).toBe('12.345');
  });
});

describe('pricingOf', () => {
  it('gives prompt, completion and the cache prices the book has', () => {
    const prices = toTokenPrices({
      input_cost_per_token: 3e-6,
      output_cost_per_token: 15e-6,
      cache_read_input_token_cost: 0.3e-6,
      cache_creation_input_token_cost: 3.75e-6,
    });
    expect(pricingOf(prices)).toEqual({
      prompt: '0.000003',
      completion: '0.000015',
      input_cache_read: '0.0000003',
      input_cache_write: '0.00000375',
    });
  });

  it('gives "-1" for a model without a price, never "0", which would say it is free', () => {
    expect(pricingOf(null)).toEqual({ prompt: '-1', completion: '-1' });
    expect(pricingOf(toTokenPrices({ input_cost_per_token: 0, output_cost_per_token: 0 }))).toEqual({
      prompt: '0',
      completion: '0',
    });
  });
});

describe('tokenizerOf', () => {
  it.each([
    ['openai/gpt-4o', 'GPT'],
    ['openai/o3-mini', 'GPT'],
    ['openrouter/openai/gpt-4.1', 'GPT'],
    ['anthropic/claude-sonnet-4-20250514', 'Claude'],
    ['openrouter/anthropic/claude-3.7-sonnet', 'Claude'],
    ['google/gemini-2.5-pro', 'Gemini'],
    ['google/gemma-3-27b-it', 'Gemma'],
    ['ollama/llama3.2:latest', 'Llama3'],
    ['groq/llama-4-scout', 'Llama4'],
    ['mistral/mistral-large-latest', 'Mistral'],
    ['ollama/qwen3:8b', 'Qwen3'],
    ['deepseek/deepseek-chat', 'DeepSeek'],
    ['xai/grok-4', 'Grok'],
    ['lmstudio/some-local-model', 'Other'],
  ])('%s → %s', (model, tokenizer) => {
    expect(tokenizerOf(model)).toBe(tokenizer);
  });
});

describe('supportedParametersOf', () => {
  it('an OpenAI-compatible upstream gets every parameter, so it lists them all', () => {
    expect(supportedParametersOf('openai')).toEqual(
      expect.arrayContaining(['tools', 'logit_bias', 'logprobs', 'top_k', 'min_p', 'reasoning', 'verbosity']),
    );
    expect(supportedParametersOf(undefined)).toEqual(supportedParametersOf('openai'));
  });

  it('Anthropic and Gemini list what the gateway translates, reasoning included', () => {
    const anthropic = supportedParametersOf('anthropic');
    expect(anthropic).toEqual(expect.arrayContaining(['tools', 'top_k', 'reasoning', 'structured_outputs']));
    expect(anthropic).not.toContain('logit_bias');
    expect(anthropic).not.toContain('seed');
    const google = supportedParametersOf('google');
    expect(google).toEqual(expect.arrayContaining(['seed', 'frequency_penalty', 'reasoning_effort']));
    expect(google).not.toContain('logit_bias');
  });
});

describe('toOpenRouterModel', () => {
  it('fills every field OpenRouter’s schema requires, from what the provider listed', () => {
    const model = toOpenRouterModel(
      {
        id: 'claude/claude-sonnet-4-20250514',
        name: 'Claude Sonnet 4',
        created: 1_747_000_000,
        owned_by: 'anthropic',
        context_length: 200_000,
        architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
      },
      { kind: 'anthropic', prices: null, basePrefix: '/api/v1' },
    );
    expect(model).toEqual({
      id: 'claude/claude-sonnet-4-20250514',
      canonical_slug: 'claude/claude-sonnet-4-20250514',
      name: 'Claude Sonnet 4',
      created: 1_747_000_000,
      description: 'claude-sonnet-4-20250514, served through the provider "claude".',
      context_length: 200_000,
      architecture: {
        modality: 'text+image->text',
        input_modalities: ['text', 'image'],
        output_modalities: ['text'],
        tokenizer: 'Claude',
        instruct_type: null,
      },
      pricing: { prompt: '-1', completion: '-1' },
      top_provider: { context_length: 200_000, max_completion_tokens: null, is_moderated: false },
      per_request_limits: null,
      supported_parameters: supportedParametersOf('anthropic'),
      default_parameters: null,
      supported_voices: null,
      links: { details: '/api/v1/models/claude/claude-sonnet-4-20250514/endpoints' },
      object: 'model',
      owned_by: 'anthropic',
    });
  });

  it('a bare listing (an OpenAI-compatible server’s id only) is text to text, created 0, unknown context', () => {
    const model = toOpenRouterModel(
      { id: 'ollama/llama3.2', name: 'llama3.2' },
      {
        kind: 'openai',
        prices: null,
        basePrefix: '/v1',
      },
    );
    expect(model).toMatchObject({
      created: 0,
      context_length: null,
      architecture: { modality: 'text->text', tokenizer: 'Llama3' },
      owned_by: 'ollama',
    });
    const endpoints = toOpenRouterEndpoints(model);
    expect(endpoints.endpoints).toEqual([
      expect.objectContaining({ provider_name: 'ollama', model_id: 'ollama/llama3.2', context_length: 0 }),
    ]);
    expect(endpoints.endpoints[0]!.supports_tool_choice).toEqual({
      auto: true,
      function: true,
      none: true,
      required: true,
    });
  });
});

describe('the list filters', () => {
  const model = toOpenRouterModel(
    {
      id: 'g/gemini-2.5-flash',
      name: 'Gemini',
      architecture: { input_modalities: ['text'], output_modalities: ['text'] },
    },
    { kind: 'google', prices: null, basePrefix: '/v1' },
  );

  it('supported_parameters keeps models that support every one named', () => {
    expect(supportsAll(model, [])).toBe(true);
    expect(supportsAll(model, ['tools', 'seed'])).toBe(true);
    expect(supportsAll(model, ['tools', 'logit_bias'])).toBe(false);
  });

  it('output_modalities keeps models that produce any one named, or all with "all"', () => {
    expect(producesAny(model, ['text', 'image'])).toBe(true);
    expect(producesAny(model, ['embeddings'])).toBe(false);
    expect(producesAny(model, ['all'])).toBe(true);
  });
});
