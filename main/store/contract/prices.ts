// The user's price overrides (model_prices). Prices are whole pico-dollars per token (1e-12 USD, the same number as
// micro-dollars per million tokens), so that costs are integer arithmetic.

export interface PriceRow {
  /** As the user typed it: an upstream model name (`gpt-4o`) or a full id (`myazure/gpt-4o`). */
  model: string;
  inputPico: number;
  outputPico: number;
  /** Null: cached input tokens cost the input price. */
  cacheReadPico: number | null;
  /** Null: tokens written to the cache cost the input price. */
  cacheWritePico: number | null;
  updatedAt: number;
}
