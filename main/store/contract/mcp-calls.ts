// Tool calls made through the MCP hub (mcp_hub_calls). Never the arguments or the result: they may hold anything
// the tool reads.

import type { McpHubCall } from '../../../shared/bridge/types.js';

/** A row as the hub records it and Activity lists it. */
export type McpCallRow = McpHubCall;
