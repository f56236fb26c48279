import type { Usage } from '../../../shared/api/index.js';
import type { GeminiUsage } from './gemini-api.js';

/**
 * Gemini usageMetadata → ours. promptTokenCount already includes the cached tokens; candidatesTokenCount excludes
 * the thoughts, so completion_tokens = candidates + thoughts and reasoning_tokens = thoughts.
 */
export function convertGeminiUsage(raw: GeminiUsage): Usage {
  const prompt = raw.promptTokenCount ?? 0;
  const thoughts = raw.thoughtsTokenCount ?? 0;
  const completion = (raw.candidatesTokenCount ?? 0) + thoughts;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: raw.cachedContentTokenCount ?? 0 },
    completion_tokens_details: { reasoning_tokens: thoughts },
  };
}
