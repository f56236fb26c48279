import { describe, expect, it } from 'vitest';
import type { Usage } from '../../../shared/api/index.js';
import { builtinPrices } from './builtin-prices.js';
import { costInNanos } from './compute-cost.js';
import { toTokenPrices } from './model-price.js';

const sonnet = toTokenPrices(builtinPrices['claude-sonnet-4']!); // $3 in, $15 out, $0.30 read, $3.75 write per M
const gpt4o = toTokenPrices(builtinPrices['gpt-4o']!); // $2.50 in, $10 out, $1.25 cached per M

function usage(prompt: number, completion: number, cached?: number, cacheWrite?: number): Usage {
  const result: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  if (cached !== undefined || cacheWrite !== undefined) {
    result.prompt_tokens_details = { cached_tokens: cached, cache_write_tokens: cacheWrite };
  }
  return result;
}

describe('costInNanos', () => {
  it('adds $10 per 1,000 web searches a provider ran itself (Anthropic) to the tokens’ cost', () => {
    // 1000 × $3/M + 100 × $15/M = $0.0045, plus 2 × $0.01
    const searched: Usage = { ...usage(1000, 100), server_tool_use: { web_search_requests: 2 } };
    expect(costInNanos(searched, sonnet)).toBe(4_500_000 + 20_000_000);
    expect(costInNanos(usage(1000, 100), sonnet)).toBe(4_500_000);
  });

  it('prices input and output per token, in whole nano-dollars', () => {
    // 1000 × $2.50/M + 500 × $10/M = $0.0025 + $0.005
    expect(costInNanos(usage(1000, 500), gpt4o)).toBe(7_500_000);
    expect(costInNanos(usage(0, 0), gpt4o)).toBe(0);
  });

  it('bills cached tokens at the cache-read price and only the rest at the input price', () => {
    // (1000 − 400) × $2.50/M + 400 × $1.25/M + 10 × $10/M = 1500 + 500 + 100 micro-dollars
    expect(costInNanos(usage(1000, 10, 400), gpt4o)).toBe(2_100_000);
    // Not 1000 × $2.50 + 400 × $1.25 (cached tokens billed twice), not 600 × $2.50 alone (cached ones free).
    expect(costInNanos(usage(1000, 10, 400), gpt4o)).not.toBe(3_100_000);
    expect(costInNanos(usage(1000, 10, 400), gpt4o)).not.toBe(1_600_000);
  });

  it('bills cache writes at the cache-write price, once, out of prompt_tokens (Anthropic through our usage)', () => {
    // prompt 1000 = 500 uncached + 400 read + 100 written:
    // 500 × $3 + 400 × $0.30 + 100 × $3.75 + 50 × $15 (per M) = 1500 + 120 + 375 + 750 micro-dollars
    expect(costInNanos(usage(1000, 50, 400, 100), sonnet)).toBe(2_745_000);
    // Only writes: 200 × $3.75 + 800 × $3 = 750 + 2400 micro-dollars
    expect(costInNanos(usage(1000, 0, 0, 200), sonnet)).toBe(3_150_000);
  });

  it('bills cache tokens at the input price when the model has no cache prices', () => {
    const flat = { inputPico: 1_000_000, outputPico: 2_000_000, cacheReadPico: null, cacheWritePico: null };
    expect(costInNanos(usage(1000, 100, 300, 200), flat)).toBe(costInNanos(usage(1000, 100), flat));
    expect(costInNanos(usage(1000, 100), flat)).toBe(1_200_000);
  });

  it('clamps impossible figures instead of going negative or billing tokens twice', () => {
    expect(costInNanos(usage(100, 0, 500), gpt4o)).toBe(costInNanos(usage(100, 0, 100), gpt4o));
    expect(costInNanos(usage(100, 0, 60, 90), sonnet)).toBe(costInNanos(usage(100, 0, 60, 40), sonnet));
    expect(costInNanos(usage(-5, Number.NaN), gpt4o)).toBe(0);
  });

  it('rounds once, at the end, to the nearest nano-dollar', () => {
    // $0.0004 per million tokens = 0.4 nano-dollars per token: each part alone would round to 0.
    const tiny = { inputPico: 400, outputPico: 400, cacheReadPico: null, cacheWritePico: null };
    expect(costInNanos(usage(1, 0), tiny)).toBe(0);
    expect(costInNanos(usage(1, 1), tiny)).toBe(1);
    expect(costInNanos(usage(5, 0), tiny)).toBe(2);
  });
});
