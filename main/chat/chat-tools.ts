// The MCP tools as the tool loop sees them: the functions to offer, whether each may run without asking, running
// one, and "always allow" (the tool joins its server's autoApprove in mcp_settings.json, through the manager that
// owns the file), and reading a resource the user attaches to a message.

import type { FunctionTool } from '../../shared/api/index.js';
import type { ToolMedia } from '../../shared/bridge/tool-media.js';
import type { ToolHints } from '../../shared/bridge/types.js';
import type { Logger } from '../common/index.js';
import { toolResultMedia, toolResultText, type McpManager } from '../mcp/index.js';

export interface ToolTarget {
  server: string;
  tool: string;
  autoApproved: boolean;
  /** What the server's annotations say the tool does, for the approval card. */
  hints?: ToolHints;
}

export interface ToolOutcome {
  /** What the model is given (images and audio described in words). */
  text: string;
  isError: boolean;
  /** Images and audio of the result, kept with the tool message for the user to see and hear. */
  media?: ToolMedia[];
}

export interface ChatTools {
  /** The functions to offer the model now (every connected, enabled server's tools). */
  functionTools(): FunctionTool[];
  /** The server and tool behind a function name; undefined for a name that was never offered. */
  resolve(functionName: string): ToolTarget | undefined;
  /** Never throws: failures, timeouts and cancellations come back as `isError` results starting `Error:`. */
  call(functionName: string, argumentsJson: string, signal: AbortSignal): Promise<ToolOutcome>;
  /** Adds the tool to its server's autoApprove in the settings file and applies it. */
  allowAlways(server: string, tool: string): Promise<void>;
  /** A resource's contents, to attach to a message: text, or base64 `blob`. Throws when it cannot be read. */
  readResource(server: string, uri: string): Promise<ResourceContent[]>;
}

export type ResourceContent = { uri: string; mimeType?: string } & ({ text: string } | { blob: string });

/** The part of the manager the chat uses. */
export type ChatMcp = Pick<McpManager, 'toolCatalog' | 'callFunctionTool' | 'setToolAutoApprove' | 'readResource'>;

export function createMcpChatTools(manager: ChatMcp, logger: Logger): ChatTools {
  return {
    functionTools: () => manager.toolCatalog().functionTools,
    resolve(functionName) {
      const entry = manager.toolCatalog().resolve(functionName);
      return entry && { server: entry.server, tool: entry.tool, autoApproved: entry.autoApproved, hints: entry.hints };
    },
    async call(functionName, argumentsJson, signal) {
      const result = await manager.callFunctionTool(functionName, argumentsJson, { signal });
      return { text: toolResultText(result), isError: result.isError, media: toolResultMedia(result) };
    },
    async allowAlways(server, tool) {
      // Applied when it resolves: the next call of this turn already runs without asking.
      await manager.setToolAutoApprove(server, tool, true);
      logger.info({ server, tool }, 'tool added to autoApprove');
    },
    async readResource(server, uri) {
      return (await manager.readResource(server, uri)).map((content) => {
        const mimeType = content.mimeType ? { mimeType: content.mimeType } : {};
        return 'text' in content
          ? { uri: content.uri, ...mimeType, text: String(content.text) }
          : { uri: content.uri, ...mimeType, blob: String(content.blob) };
      });
    },
  };
}
