// Every way a tool call can end becomes one result shape the chat hands to the model: spec 7 says a failed tool
// returns `isError: true` with a text part beginning with `Error:`, and protocol errors (invalid params, a
// timeout, a crashed server) are handed on the same way rather than thrown (call-errors.ts words those).

import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';

/** One part of a tool result or prompt message, as the MCP SDK types it. */
export type McpContentBlock = ContentBlock;
import { showableMedia, type ToolMedia } from '../../shared/bridge/tool-media.js';

export interface ToolResult {
  content: ContentBlock[];
  isError: boolean;
  structuredContent?: Record<string, unknown>;
}

export const errorPrefix = 'Error:';

export function errorResult(message: string): ToolResult {
  return { content: [{ type: 'text', text: `${errorPrefix} ${message}` }], isError: true };
}

/** Takes what `client.callTool` returned; old servers' `{ toolResult }` shape is turned into text. */
export function normaliseToolResult(result: CallToolResult | { toolResult: unknown }): ToolResult {
  if (!('content' in result)) {
    const value = result.toolResult;
    return {
      content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
      isError: false,
    };
  }
  const normalised: ToolResult = { content: result.content ?? [], isError: result.isError === true };
  if (result.structuredContent) normalised.structuredContent = result.structuredContent;
  // Structured-only results still need text for a model that reads text.
  if (normalised.content.length === 0 && result.structuredContent) {
    normalised.content = [{ type: 'text', text: JSON.stringify(result.structuredContent) }];
  }
  return normalised.isError ? withErrorPrefix(normalised) : normalised;
}

function withErrorPrefix(result: ToolResult): ToolResult {
  const index = result.content.findIndex((part) => part.type === 'text');
  if (index === -1) return { ...result, content: [...errorResult('the tool failed').content, ...result.content] };
  const part = result.content[index] as { type: 'text'; text: string };
  if (part.text.startsWith(errorPrefix)) return result;
  const content = [...result.content];
  content[index] = { ...part, text: `${errorPrefix} ${part.text}` };
  return { ...result, content };
}

/** The result as one string for a chat `tool` message: text parts as they are, other parts described. */
export function toolResultText(result: ToolResult): string {
  return result.content.map(describePart).join('\n');
}

/** The images and audio of the result that the UI may show as media (the text describes them for the model). */
export function toolResultMedia(result: ToolResult): ToolMedia[] {
  return result.content.flatMap((part) => showableMedia(part) ?? []);
}

function describePart(part: ContentBlock): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type} ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[resource ${part.uri}${part.name ? ` (${part.name})` : ''}]`;
    case 'resource':
      return 'text' in part.resource ? part.resource.text : `[resource ${part.resource.uri}]`;
    default:
      return JSON.stringify(part);
  }
}
