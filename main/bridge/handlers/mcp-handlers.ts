import type { McpServerStatus } from '../../../shared/bridge/types.js';
import type { McpManager } from '../../mcp/index.js';
import type { BridgeHandlerMap } from './handler-types.js';

export function mcpHandlers(mcp: Pick<McpManager, 'list'>): BridgeHandlerMap<'mcp:list-servers'> {
  return {
    'mcp:list-servers': () => ({ servers: mcp.list() satisfies McpServerStatus[] }),
  };
}
