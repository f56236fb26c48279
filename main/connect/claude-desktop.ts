// Claude Desktop: `mcpServers` in claude_desktop_config.json, in the app's settings folder (Claude/ under
// ~/Library/Application Support, %APPDATA% or ~/.config). Local servers there are commands it launches (stdio).
//
// Verified against: https://modelcontextprotocol.io/docs/develop/connect-local-servers

import path from 'node:path';
import { appSettingsDir, mcpClientTool } from './mcp-hub-entry.js';
import type { ConnectContext, ToolDefinition } from './tool-definition.js';

const configFile = (context: Pick<ConnectContext, 'home' | 'env'>) =>
  path.join(appSettingsDir(context), 'Claude', 'claude_desktop_config.json');

export const claudeDesktop: ToolDefinition = mcpClientTool({
  id: 'claude-desktop',
  name: 'Claude Desktop',
  aliases: ['claude-app'],
  docs: ['https://modelcontextprotocol.io/docs/develop/connect-local-servers'],
  configFile,
  member: 'mcpServers',
  note: 'Claude Desktop asks before each tool call; Settings → Developer shows the server and its log.',
});
