// A server's prompts for the chat's composer: the list, and one prompt's messages with its arguments filled in.
// Images come as media the UI may show (tool-media.ts), embedded text resources as text; anything else is described
// in words, as a tool result's is for a model.

import { showableMedia } from '../../../shared/bridge/tool-media.js';
import type { McpPromptContent } from '../../../shared/bridge/types.js';
import { toolResultText, type McpContentBlock, type McpManager } from '../../mcp/index.js';
import { onMcpServer } from './mcp-handlers.js';
import type { BridgeHandlerMap } from './handler-types.js';

export type BridgeMcpPrompts = Pick<McpManager, 'server' | 'listPrompts' | 'getPrompt'>;

export function mcpPromptHandlers(mcp: BridgeMcpPrompts): BridgeHandlerMap<'mcp:list-prompts' | 'mcp:get-prompt'> {
  const onServer = <T>(name: string, call: () => Promise<T>) => onMcpServer(mcp, name, call);
  return {
    'mcp:list-prompts': async ({ name }) => ({
      prompts: (await onServer(name, () => mcp.listPrompts(name))).map((prompt) => ({
        name: prompt.name,
        ...(prompt.title ? { title: prompt.title } : {}),
        ...(prompt.description ? { description: prompt.description } : {}),
        arguments: (prompt.arguments ?? []).map((argument) => ({
          name: argument.name,
          ...(argument.description ? { description: argument.description } : {}),
          required: argument.required === true,
        })),
      })),
    }),
    'mcp:get-prompt': async ({ name, prompt, arguments: args }) => {
      const result = await onServer(name, () => mcp.getPrompt(name, prompt, args));
      return {
        ...(result.description ? { description: result.description } : {}),
        messages: result.messages.map((message) => ({ role: message.role, content: promptContent(message.content) })),
      };
    },
  };
}

function promptContent(part: McpContentBlock): McpPromptContent {
  const media = showableMedia(part);
  if (media?.type === 'image') return { type: 'image', media };
  if (part.type === 'resource' && 'text' in part.resource) {
    const { uri, mimeType, text } = part.resource;
    return { type: 'resource', uri, ...(mimeType ? { mimeType } : {}), text };
  }
  if (part.type === 'text') return { type: 'text', text: part.text };
  return { type: 'text', text: toolResultText({ content: [part], isError: false }) };
}
