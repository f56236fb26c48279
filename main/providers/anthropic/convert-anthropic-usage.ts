import type { Usage } from '../../../shared/api/index.js';
import type { AnthropicUsage } from './anthropic-api.js';

/**
 * Anthropic usage → ours. `input_tokens` excludes cache reads and writes, so the prompt is their sum;
 * completion_tokens is `output_tokens` (thinking included). Anthropic does not count thinking tokens separately,
 * so `completion_tokens_details.reasoning_tokens` is left out rather than reported as a false 0.
 */
export function convertAnthropicUsage(raw: AnthropicUsage): Usage {
  const input = raw.input_tokens ?? 0;
  const cacheRead = raw.cache_read_input_tokens ?? 0;
  const cacheWrite = raw.cache_creation_input_tokens ?? 0;
  const prompt = input + cacheRead + cacheWrite;
  const completion = raw.output_tokens ?? 0;
  const usage: Usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cacheRead, cache_write_tokens: cacheWrite },
  };
  // Web searches Anthropic ran for the model are billed per search, on top of the tokens.
  const searches = raw.server_tool_use?.web_search_requests;
  if (searches) usage.server_tool_use = { web_search_requests: searches };
  return usage;
}
