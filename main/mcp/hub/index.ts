// The MCP hub: the user's MCP servers offered to other MCP clients, over Streamable HTTP (the gateway's `/mcp`)
// and over stdio (`switchyard mcp serve`).

export { HubAccess, everyServer } from './hub-access.js';
export { type HubCaller, type HubOptions, type HubToolCall } from './hub-server.js';
export { McpHttpHub, type HttpHubOptions, type HubHttpExchange } from './http-hub.js';
export { serveHubOverStdio } from './stdio-hub.js';
