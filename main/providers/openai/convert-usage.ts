import type { Usage } from '../../../shared/api/index.js';
import type { UpstreamUsage } from './upstream-schemas.js';

/**
 * OpenAI usage → ours. Totals are recomputed when a server omits them; the upstream `cost` is kept (OpenRouter).
 * OpenAI counts reasoning tokens inside `completion_tokens`; xAI leaves them out (291 + 26 + reasoning 196 = total
 * 513). Cost and spend limits price completion tokens, so they are added back whenever the upstream's own total
 * says they were left out.
 */
export function convertOpenAIUsage(raw: UpstreamUsage): Usage {
  const prompt = raw.prompt_tokens ?? 0;
  const reasoning = raw.completion_tokens_details?.reasoning_tokens;
  let completion = raw.completion_tokens ?? 0;
  const total = raw.total_tokens;
  if (reasoning && total != null && prompt + completion !== total && prompt + completion + reasoning === total) {
    completion += reasoning;
  }
  const usage: Usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: total ?? prompt + completion,
  };
  const cached = raw.prompt_tokens_details?.cached_tokens;
  const cacheWrite = raw.prompt_tokens_details?.cache_write_tokens;
  if (cached != null || cacheWrite != null) {
    usage.prompt_tokens_details = {};
    if (cached != null) usage.prompt_tokens_details.cached_tokens = cached;
    if (cacheWrite != null) usage.prompt_tokens_details.cache_write_tokens = cacheWrite;
  }
  if (reasoning != null) usage.completion_tokens_details = { reasoning_tokens: reasoning };
  if (raw.cost != null) usage.cost = raw.cost;
  return usage;
}
