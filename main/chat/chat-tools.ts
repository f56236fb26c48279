// The MCP tools as the tool loop sees them: the functions to offer, whether each may run without asking, running
// one, and "always allow" (the tool joins its server's autoApprove in mcp_settings.json).

import type { FunctionTool } from '../../shared/api/index.js';
import type { Logger } from '../app/index.js';
import { toolResultText, updateSettingsFile, type McpManager } from '../mcp/index.js';

export interface ToolTarget {
  server: string;
  tool: string;
  autoApproved: boolean;
}

export interface ToolOutcome {
  text: string;
  isError: boolean;
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
}

export function createMcpChatTools(manager: McpManager, dataDir: string, logger: Logger): ChatTools {
  return {
    functionTools: () => manager.toolCatalog().functionTools,
    resolve(functionName) {
      const entry = manager.toolCatalog().resolve(functionName);
      return entry && { server: entry.server, tool: entry.tool, autoApproved: entry.autoApproved };
    },
    async call(functionName, argumentsJson, signal) {
      const result = await manager.callFunctionTool(functionName, argumentsJson, { signal });
      return { text: toolResultText(result), isError: result.isError };
    },
    async allowAlways(server, tool) {
      await updateSettingsFile(dataDir, (raw) => {
        const entry = raw.mcpServers?.[server];
        if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return;
        const fields = entry as Record<string, unknown>;
        const current = Array.isArray(fields.autoApprove) ? fields.autoApprove : [];
        if (!current.includes(tool)) fields.autoApprove = [...current, tool];
      });
      // The watcher would notice too, but later: apply it before the next call of this turn.
      await manager.reload();
      logger.info({ server, tool }, 'tool added to autoApprove');
    },
  };
}
