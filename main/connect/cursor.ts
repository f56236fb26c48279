// Cursor: `mcpServers` in ~/.cursor/mcp.json, the global MCP config (a project's .cursor/mcp.json adds to it).
//
// Verified against: https://cursor.com/docs/context/mcp

import path from 'node:path';
import { mcpClientTool } from './mcp-hub-entry.js';
import type { ConnectContext, ToolDefinition } from './tool-definition.js';

const configFile = (context: Pick<ConnectContext, 'home'>) => path.join(context.home, '.cursor', 'mcp.json');

export const cursor: ToolDefinition = mcpClientTool({
  id: 'cursor',
  name: 'Cursor',
  aliases: [],
  docs: ['https://cursor.com/docs/context/mcp'],
  configFile,
  member: 'mcpServers',
  note: 'Cursor Settings → MCP lists the server; Cursor turns it on there if it asks.',
});
