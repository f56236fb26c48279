// The Responses API's hosted tools (OpenAI runs them on its servers: web_search, file_search, code_interpreter,
// computer_use_preview, image_generation, mcp, local_shell…) never fail a request. `web_search` becomes the
// provider's own web search where it has one (main/providers/web-search.ts decides): chat's `web_search_options`,
// which the Anthropic and Gemini builders turn into their search tools, with OpenRouter's `web` plugin added for
// OpenRouter. Every other hosted tool, and a web search the provider cannot run, is left out of what the provider is
// sent, and said so: the X-Switchyard-Dropped-Tools header and the usage row's dropped_tools. Which provider answers
// is known only per attempt (a fallback in `models` may be of another kind), so the request is prepared per attempt.

import type { ChatRequest, ProviderInfo } from '../../../../shared/api/index.js';
import { approximateLocationOf, webSearchKindOf } from '../../../providers/index.js';
import { isHostedTool } from './responses-tools.js';

/** The types of OpenAI's web search tool, current and dated. */
const webSearchTypes = new Set([
  'web_search',
  'web_search_preview',
  'web_search_2025_08_26',
  'web_search_preview_2025_03_11',
]);

/** The response header that names the hosted tools left out, comma-separated. */
export const droppedToolsHeader = 'x-switchyard-dropped-tools';

export interface HostedTools {
  /** The declared web search, as chat's web_search_options and by the type it was declared as; null for none. */
  webSearch: { type: string; options: Record<string, unknown> } | null;
  /** Hosted tools left out whichever provider answers, by declared type, each once. */
  dropped: string[];
}

interface WebSearchDeclaration {
  type: string;
  external_web_access?: unknown;
  search_context_size?: unknown;
  user_location?: unknown;
}

/** The Responses tool's `user_location` and `search_context_size` as chat's web_search_options. */
function webSearchOptionsOf(tool: WebSearchDeclaration): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (typeof tool.search_context_size === 'string') options.search_context_size = tool.search_context_size;
  const approximate = approximateLocationOf(tool.user_location);
  if (approximate) options.user_location = { type: 'approximate', approximate };
  return options;
}

/**
 * The hosted tools of a request. Codex's default web search (`external_web_access: false`) searches only OpenAI's
 * cache of pages: a live search would fetch more than the caller allowed, so it is left out like the others.
 */
export function hostedToolsOf(declared: readonly { type: string }[]): HostedTools {
  let webSearch: HostedTools['webSearch'] = null;
  const dropped = new Set<string>();
  for (const tool of declared.filter(isHostedTool)) {
    const search = tool as WebSearchDeclaration;
    if (webSearchTypes.has(tool.type) && search.external_web_access !== false) {
      webSearch ??= { type: tool.type, options: webSearchOptionsOf(search) };
    } else {
      dropped.add(tool.type);
    }
  }
  return { webSearch, dropped: [...dropped] };
}

/**
 * The request as one provider is sent it: the web search kept where the provider runs one (OpenRouter told so by
 * its `web` plugin), else left out; and every hosted tool left out for it.
 */
export function hostedToolsFor(
  request: ChatRequest,
  hosted: HostedTools,
  provider: Pick<ProviderInfo, 'kind' | 'base_url'>,
  model: string,
): { request: ChatRequest; dropped: string[] } {
  if (!hosted.webSearch) return { request, dropped: hosted.dropped };
  switch (webSearchKindOf(provider, model, request)) {
    case null: {
      const { web_search_options: _search, ...withoutSearch } = request;
      return { request: withoutSearch, dropped: [...hosted.dropped, hosted.webSearch.type] };
    }
    case 'openrouter-web-plugin': {
      // `plugins` is one of OpenRouter's own fields, forwarded to OpenRouter only (chat-request.ts).
      const withPlugin = { ...request, plugins: [{ id: 'web' }] } as ChatRequest;
      return { request: withPlugin, dropped: hosted.dropped };
    }
    default:
      return { request, dropped: hosted.dropped };
  }
}
