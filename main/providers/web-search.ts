// Which providers run a web search themselves, and how: one answer for the builders that translate OpenAI's
// `web_search_options` (Anthropic's web search server tool, Gemini's Google Search grounding) and for the Responses
// API, which offers its hosted `web_search` tool to a provider only where it runs and leaves it out elsewhere
// (docs/responses-api.md has the table). A plain OpenAI-compatible server gets `web_search_options` as the caller
// sent it and decides itself; what it would do with it cannot be known here.

import type { ChatRequest, ProviderInfo } from '../../shared/api/index.js';
import { offeredTools } from './common/index.js';
import { isOpenRouterLike } from './openai/url.js';

export type WebSearchKind =
  /** Anthropic's server tool `web_search_20250305`, which the model calls as it needs. */
  | 'anthropic-web-search'
  /** Gemini's `googleSearch` tool: the answer grounded in Google Search results. */
  | 'google-search'
  /** OpenRouter's `web` plugin (what the `:online` suffix stands for): native search or Exa, OpenRouter's choice. */
  | 'openrouter-web-plugin';

/** The name Anthropic's web search tool is declared under; a function of the same name would clash with it. */
export const anthropicWebSearchToolName = 'web_search';

// Claude models older than 3.5 Sonnet (October 2024) have no web search tool.
const claudeWithoutWebSearch = /^claude-(2|instant|3-(opus|sonnet|haiku)-)/;

/** Gemini's major version from its model name (`gemini-2.5-flash` → 2), null when the name does not say. */
function geminiMajorVersion(model: string): number | null {
  const match = /^(?:models\/)?gemini-(\d+)(?:\.\d+)?-/.exec(model);
  return match ? Number(match[1]) : null;
}

/** Whether Anthropic runs its web search tool for `model` (and no function of the request takes its name). */
export function anthropicSearchesWeb(model: string, request: Pick<ChatRequest, 'tools'>): boolean {
  const clash = (request.tools ?? []).some((tool) => tool.function.name === anthropicWebSearchToolName);
  return !claudeWithoutWebSearch.test(model) && !clash;
}

/**
 * Whether Gemini grounds an answer of `model` in Google Search: from 2.0 on, and only without function tools.
 * Combining them requires the server's own tool invocations to travel back with each later turn, which the chat
 * request has no place for.
 */
export function geminiSearchesWeb(model: string, request: Pick<ChatRequest, 'tools' | 'tool_choice'>): boolean {
  const major = geminiMajorVersion(model);
  const searches = major === null ? /^(models\/)?gemini-/.test(model) : major >= 2;
  return searches && offeredTools(request).length === 0;
}

/** How `provider` searches the web for a request to `model`, or null when it cannot. */
export function webSearchKindOf(
  provider: Pick<ProviderInfo, 'kind' | 'base_url'>,
  model: string,
  request: Pick<ChatRequest, 'tools' | 'tool_choice'>,
): WebSearchKind | null {
  switch (provider.kind) {
    case 'anthropic':
      return anthropicSearchesWeb(model, request) ? 'anthropic-web-search' : null;
    case 'google':
      return geminiSearchesWeb(model, request) ? 'google-search' : null;
    default:
      return isOpenRouterLike(provider.base_url) ? 'openrouter-web-plugin' : null;
  }
}

export interface ApproximateLocation {
  city?: string;
  region?: string;
  country?: string;
  timezone?: string;
}

/**
 * The fields of an approximate location that name something (the Responses tool's `user_location`, chat's
 * `web_search_options.user_location.approximate`, Anthropic's `user_location` share them); null when none does.
 */
export function approximateLocationOf(location: unknown): ApproximateLocation | null {
  if (location === null || typeof location !== 'object') return null;
  const fields = ['city', 'region', 'country', 'timezone'] as const;
  const given = location as Record<string, unknown>;
  const named = Object.fromEntries(
    fields.flatMap((field) => (typeof given[field] === 'string' ? [[field, given[field]]] : [])),
  );
  return Object.keys(named).length > 0 ? named : null;
}

/** Chat's `web_search_options.user_location.approximate`, when it names a place. */
export function requestedLocationOf(options: ChatRequest['web_search_options']): ApproximateLocation | null {
  return approximateLocationOf((options?.user_location as { approximate?: unknown } | undefined)?.approximate);
}
