// The MCP hub: the user's MCP servers offered to other MCP clients, over Streamable HTTP (the gateway's `/mcp`)
// and over stdio (`switchyard mcp serve`).

export { HubAccess, everyServer } from './hub-access.js';
// Types only: hub-server.js loads the MCP SDK, which the hubs load when a client connects.
export type { HubCaller, HubOptions, HubToolCall } from './hub-server.js';
export { McpHttpHub, type HttpHubOptions, type HubHttpExchange } from './http-hub.js';
export { serveHubOverStdio } from './stdio-hub.js';
