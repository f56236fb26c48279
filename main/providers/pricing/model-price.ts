// Prices as data (LiteLLM's field names, USD per token) and as we compute with them (whole pico-dollars per
// token, 1e-12 USD: integers, so that a cost is exact integer arithmetic until its final rounding).

/** A model's prices, USD per token, with LiteLLM's field names. */
export interface ModelPrice {
  input_cost_per_token: number;
  output_cost_per_token: number;
  /** Cached input tokens (prompt cache hits). Absent: they cost the input price. */
  cache_read_input_token_cost?: number;
  /** Input tokens written to the prompt cache (Anthropic). Absent: they cost the input price. */
  cache_creation_input_token_cost?: number;
}

/** Whole pico-dollars per token (= micro-dollars per million tokens). */
export interface TokenPrices {
  inputPico: number;
  outputPico: number;
  cacheReadPico: number | null;
  cacheWritePico: number | null;
}

const picoPerUsd = 1e12;
/** USD per million tokens → pico-dollars per token: 1 $/M = 1e-6 $/token = 1e6 pico-dollars per token. */
const picoPerUsdPerMillion = 1e6;

export function toTokenPrices(price: ModelPrice): TokenPrices {
  const pico = (usd: number | undefined) => (usd === undefined ? null : Math.round(usd * picoPerUsd));
  return {
    inputPico: pico(price.input_cost_per_token)!,
    outputPico: pico(price.output_cost_per_token)!,
    cacheReadPico: pico(price.cache_read_input_token_cost),
    cacheWritePico: pico(price.cache_creation_input_token_cost),
  };
}

export function usdPerMillionToPico(usdPerMillion: number): number {
  return Math.round(usdPerMillion * picoPerUsdPerMillion);
}

export function picoToUsdPerMillion(pico: number): number {
  return pico / picoPerUsdPerMillion;
}
