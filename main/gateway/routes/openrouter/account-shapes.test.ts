import { describe, expect, it } from 'vitest';
import type { GenerationInfo } from '../../../../shared/api/index.js';
import { toOpenRouterCredits, toOpenRouterGeneration, unlimitedCreditsUsd } from './account-shapes.js';

const generation: GenerationInfo = {
  id: 'gen-1',
  created_at: '2026-01-01T00:00:00.000Z',
  model: 'local/llama',
  provider_name: 'local',
  app: null,
  origin: null,
  streamed: true,
  status: 200,
  finish_reason: 'stop',
  cancelled: false,
  tokens_prompt: 10,
  tokens_completion: 5,
  native_tokens_cached: 0,
  native_tokens_reasoning: 0,
  total_cost: 0,
  unpriced: true,
  latency: 900,
  time_to_first_token: 200,
  error: null,
  dropped_tools: [],
};

describe('toOpenRouterCredits', () => {
  it('no balance set: the largest balance, and unlimited', () => {
    expect(toOpenRouterCredits({ total_credits: null, total_usage: 1.5 })).toEqual({
      total_credits: unlimitedCreditsUsd,
      total_usage: 1.5,
      unlimited: true,
    });
    expect(toOpenRouterCredits({ total_credits: 20, total_usage: 1.5 })).toEqual({
      total_credits: 20,
      total_usage: 1.5,
      unlimited: false,
    });
  });
});

describe('toOpenRouterGeneration', () => {
  it('an unpriced request that used tokens costs -1, not a $0 that looks free', () => {
    expect(toOpenRouterGeneration(generation)).toMatchObject({ total_cost: -1, usage: -1, unpriced: true });
  });

  it('an unpriced request that used no tokens cost nothing; a priced one its cost', () => {
    const failed = { ...generation, tokens_prompt: 0, tokens_completion: 0, status: 502, finish_reason: null };
    expect(toOpenRouterGeneration(failed)).toMatchObject({ total_cost: 0, usage: 0 });
    const priced = { ...generation, unpriced: false, total_cost: 0.0042 };
    expect(toOpenRouterGeneration(priced)).toMatchObject({ total_cost: 0.0042, usage: 0.0042 });
  });

  it('origin is a string as OpenRouter’s schema wants, and generation time excludes the wait for the first token', () => {
    expect(toOpenRouterGeneration(generation)).toMatchObject({
      origin: '',
      http_referer: null,
      generation_time: 700,
      native_tokens_prompt: 10,
      native_tokens_completion: 5,
    });
    expect(toOpenRouterGeneration({ ...generation, time_to_first_token: null }).generation_time).toBeNull();
  });
});
