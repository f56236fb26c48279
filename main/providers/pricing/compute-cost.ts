// cost = (prompt − cached − cache-write) × input + cached × cache-read + cache-write × cache-write price
//        + completion × output
// with the OpenAI/OpenRouter usage conventions every adapter converts to: prompt_tokens counts ALL input tokens,
// cached ones (prompt_tokens_details.cached_tokens) and ones written to the cache
// (prompt_tokens_details.cache_write_tokens) included; completion_tokens includes reasoning tokens. Subtracting
// both from prompt_tokens is what keeps cache tokens from being billed twice (the classic wrong-cost bug).
// A missing cache price means those tokens cost the input price. Searches a provider ran itself
// (usage.server_tool_use.web_search_requests, Anthropic's web search) cost their list price each on top.

import type { Usage } from '../../../shared/api/index.js';
import type { TokenPrices } from './model-price.js';

function count(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** Anthropic's web search: $10 per 1,000 searches, the same for every Claude model. */
export const webSearchRequestPico = 10_000_000_000;

/** The cost of this usage in whole nano-dollars (rounded once, at the end). */
export function costInNanos(usage: Usage, prices: TokenPrices): number {
  const prompt = count(usage.prompt_tokens);
  // Clamped so that odd upstream figures (more cached than prompt tokens) can never make a cost negative.
  const cached = Math.min(prompt, count(usage.prompt_tokens_details?.cached_tokens));
  const cacheWrite = Math.min(prompt - cached, count(usage.prompt_tokens_details?.cache_write_tokens));
  const uncached = prompt - cached - cacheWrite;
  const pico =
    uncached * prices.inputPico +
    cached * (prices.cacheReadPico ?? prices.inputPico) +
    cacheWrite * (prices.cacheWritePico ?? prices.inputPico) +
    count(usage.completion_tokens) * prices.outputPico +
    count(usage.server_tool_use?.web_search_requests) * webSearchRequestPico;
  return Math.round(pico / 1000);
}
