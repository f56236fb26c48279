// A whole Anthropic message (stream = false) → AdapterCompletion, with the same translation as the stream:
// text → content, thinking → reasoning + reasoning_details (text with its signature), redacted thinking →
// `reasoning.encrypted`, tool_use → tool_calls with the arguments as a JSON string, the web searches Anthropic ran
// → web_search_calls.

import type { CompletionMessage, ReasoningDetail, ToolCall, WebSearchCall } from '../../../shared/api/index.js';
import type { AdapterCompletion } from '../adapter.js';
import { urlCitation, type UrlCitation } from '../common/index.js';
import { anthropicReasoningFormat, type AnthropicCitation, type AnthropicResponseMessage } from './anthropic-api.js';
import { convertAnthropicUsage } from './convert-anthropic-usage.js';
import { webSearchCallOf, webSearchQueryOf } from './convert-anthropic-web-search.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

/** Web-search citations of a text block spanning `start`–`end` of the answer; other kinds name no URL. */
export function anthropicUrlCitations(
  citations: readonly AnthropicCitation[] | null | undefined,
  start: number,
  end: number,
): UrlCitation[] {
  return (citations ?? []).flatMap((citation) =>
    citation.url
      ? [urlCitation({ url: citation.url, title: citation.title, quote: citation.cited_text }, start, end)]
      : [],
  );
}

export function convertAnthropicMessage(message: AnthropicResponseMessage, emitReasoning: boolean): AdapterCompletion {
  let text = '';
  const annotations: UrlCitation[] = [];
  let reasoning = '';
  const details: ReasoningDetail[] = [];
  const toolCalls: ToolCall[] = [];
  const searchQueries = new Map<string, string>();
  const searches: WebSearchCall[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case 'server_tool_use': {
        const query = webSearchQueryOf(block);
        if (query !== null && block.id) searchQueries.set(block.id, query);
        break;
      }
      case 'web_search_tool_result':
        searches.push(webSearchCallOf(block, searchQueries));
        break;
      case 'text': {
        const start = text.length;
        text += block.text ?? '';
        annotations.push(...anthropicUrlCitations(block.citations, start, text.length));
        break;
      }
      case 'thinking': {
        reasoning += block.thinking ?? '';
        const detail: ReasoningDetail = {
          type: 'reasoning.text',
          text: block.thinking ?? '',
          format: anthropicReasoningFormat,
          index: details.length,
        };
        if (block.signature) detail.signature = block.signature;
        details.push(detail);
        break;
      }
      case 'redacted_thinking':
        if (block.data) {
          details.push({
            type: 'reasoning.encrypted',
            data: block.data,
            format: anthropicReasoningFormat,
            index: details.length,
          });
        }
        break;
      case 'tool_use':
        toolCalls.push({
          id: block.id ?? '',
          type: 'function',
          function: { name: block.name ?? '', arguments: JSON.stringify(block.input ?? {}) },
        });
        break;
    }
  }
  const completionMessage: CompletionMessage = {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
  };
  if (emitReasoning && reasoning !== '') completionMessage.reasoning = reasoning;
  if (emitReasoning && details.length > 0) completionMessage.reasoning_details = details;
  if (toolCalls.length > 0) completionMessage.tool_calls = toolCalls;
  if (annotations.length > 0) completionMessage.annotations = annotations;
  if (searches.length > 0) completionMessage.web_search_calls = searches;
  const stopReason = message.stop_reason ?? null;
  return {
    choices: [
      {
        index: 0,
        message: completionMessage,
        finish_reason: mapAnthropicFinishReason(stopReason),
        native_finish_reason: stopReason,
      },
    ],
    usage: convertAnthropicUsage(message.usage ?? {}),
  };
}
