// Anthropic's web search as it comes back: a `server_tool_use` block (the query the model searched for) and a
// `web_search_tool_result` block (the pages, or an error), in a whole message and in a stream alike → one
// WebSearchCall per search. The pages the answer cites come separately, as citations of its text blocks.

import { z } from 'zod';
import type { WebSearchCall } from '../../../shared/api/index.js';
import type { AnthropicBlock } from './anthropic-api.js';

const webSearchResultBlockSchema = z.looseObject({
  tool_use_id: z.string().nullish(),
  content: z
    .union([
      z.array(z.looseObject({ url: z.string().nullish(), title: z.string().nullish() })),
      // `{type: "web_search_tool_result_error", error_code}`: the search failed.
      z.looseObject({ type: z.string().nullish() }),
    ])
    .nullish(),
});

/** The query of a `server_tool_use` block of the web search tool (null for other server tools). */
export function webSearchQueryOf(block: Pick<AnthropicBlock, 'name' | 'input'>): string | null {
  if (block.name !== 'web_search') return null;
  const query = (block.input as { query?: unknown } | null | undefined)?.query;
  return typeof query === 'string' ? query : '';
}

/** The query of a web search whose input streamed as JSON text (`{"query": "…"}`); null when there is none. */
export function streamedWebSearchQuery(inputJson: string): string | null {
  try {
    const query = (JSON.parse(inputJson) as { query?: unknown } | null)?.query;
    return typeof query === 'string' ? query : null;
  } catch {
    return null; // cut short: the query stays as the block's start named it
  }
}

/** A `web_search_tool_result` block as the search it ended, `queries` the searches' by tool-use id. */
export function webSearchCallOf(block: AnthropicBlock, queries: ReadonlyMap<string, string>): WebSearchCall {
  const parsed = webSearchResultBlockSchema.safeParse(block);
  const result = parsed.success ? parsed.data : {};
  const query = result.tool_use_id ? queries.get(result.tool_use_id) : undefined;
  const call: WebSearchCall = { queries: query ? [query] : [], sources: [] };
  if (Array.isArray(result.content)) {
    call.sources = result.content.flatMap((page) =>
      page.url ? [page.title ? { url: page.url, title: page.title } : { url: page.url }] : [],
    );
  } else {
    call.failed = true;
  }
  return call;
}
