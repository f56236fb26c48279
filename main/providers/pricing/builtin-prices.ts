// The bundled price table: USD per token, LiteLLM's field names, for each provider's current flagship models.
// Keys are upstream model names without a date suffix (model-names.ts strips `-2024-08-06`, `-20250514`,
// `-latest`…); `aliases` maps other spellings (OpenRouter's dotted Claude names) onto them. Prices are the
// providers' list prices for standard (non-batch) requests; Gemini 2.5 Pro's are its ≤200k-token tier (longer
// prompts cost more: override the price if you send those). Users override any of them with `prices set`.

import type { ModelPrice } from './model-price.js';

const perMillion = (usd: number) => usd / 1_000_000;

function price(input: number, output: number, cacheRead?: number, cacheWrite?: number): ModelPrice {
  const entry: ModelPrice = { input_cost_per_token: perMillion(input), output_cost_per_token: perMillion(output) };
  if (cacheRead !== undefined) entry.cache_read_input_token_cost = perMillion(cacheRead);
  if (cacheWrite !== undefined) entry.cache_creation_input_token_cost = perMillion(cacheWrite);
  return entry;
}

// Written as USD per million tokens (how providers publish them) and stored per token.
export const builtinPrices: Readonly<Record<string, ModelPrice>> = {
  // OpenAI: cached input at the listed discount; cache writes are free (billed as input).
  'gpt-4o': price(2.5, 10, 1.25),
  'gpt-4o-mini': price(0.15, 0.6, 0.075),
  'gpt-4.1': price(2, 8, 0.5),
  'gpt-4.1-mini': price(0.4, 1.6, 0.1),
  'gpt-4.1-nano': price(0.1, 0.4, 0.025),
  o3: price(2, 8, 0.5),
  'o3-mini': price(1.1, 4.4, 0.55),
  'o4-mini': price(1.1, 4.4, 0.275),
  // Anthropic: cache read 0.1× input, cache write (5-minute) 1.25× input.
  'claude-sonnet-4': price(3, 15, 0.3, 3.75),
  'claude-sonnet-4-5': price(3, 15, 0.3, 3.75),
  'claude-3-7-sonnet': price(3, 15, 0.3, 3.75),
  'claude-opus-4': price(15, 75, 1.5, 18.75),
  'claude-opus-4-1': price(15, 75, 1.5, 18.75),
  'claude-3-5-haiku': price(0.8, 4, 0.08, 1),
  // Google: context-cache reads; output includes thinking tokens.
  'gemini-2.5-pro': price(1.25, 10, 0.125),
  'gemini-2.5-flash': price(0.3, 2.5, 0.03),
  'gemini-2.5-flash-lite': price(0.1, 0.4, 0.01),
};

export const builtinAliases: Readonly<Record<string, string>> = {
  'claude-sonnet-4-0': 'claude-sonnet-4',
  'claude-4-sonnet': 'claude-sonnet-4',
  'claude-sonnet-4.5': 'claude-sonnet-4-5',
  'claude-3.7-sonnet': 'claude-3-7-sonnet',
  'claude-opus-4-0': 'claude-opus-4',
  'claude-4-opus': 'claude-opus-4',
  'claude-opus-4.1': 'claude-opus-4-1',
  'claude-3.5-haiku': 'claude-3-5-haiku',
};
