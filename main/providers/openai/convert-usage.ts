import type { Usage } from '../../../shared/api/index.js';
import type { UpstreamUsage } from './upstream-schemas.js';

/** OpenAI usage → ours. Totals are recomputed when a server omits them; the upstream `cost` is kept (OpenRouter). */
export function convertOpenAIUsage(raw: UpstreamUsage): Usage {
  const prompt = raw.prompt_tokens ?? 0;
  const completion = raw.completion_tokens ?? 0;
  const usage: Usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: raw.total_tokens ?? prompt + completion,
  };
  const cached = raw.prompt_tokens_details?.cached_tokens;
  const cacheWrite = raw.prompt_tokens_details?.cache_write_tokens;
  if (cached != null || cacheWrite != null) {
    usage.prompt_tokens_details = {};
    if (cached != null) usage.prompt_tokens_details.cached_tokens = cached;
    if (cacheWrite != null) usage.prompt_tokens_details.cache_write_tokens = cacheWrite;
  }
  const reasoning = raw.completion_tokens_details?.reasoning_tokens;
  if (reasoning != null) usage.completion_tokens_details = { reasoning_tokens: reasoning };
  if (raw.cost != null) usage.cost = raw.cost;
  return usage;
}
