// VS Code (Copilot's agent mode): the user-level mcp.json in VS Code's User folder, whose servers sit under
// `servers` (not `mcpServers`) and name their transport in `type`.
//
// Verified against: https://code.visualstudio.com/docs/copilot/customization/mcp-servers and
// https://code.visualstudio.com/docs/copilot/reference/mcp-configuration

import path from 'node:path';
import { appSettingsDir, mcpClientTool } from './mcp-hub-entry.js';
import type { ConnectContext, ToolDefinition } from './tool-definition.js';

/** VS Code's User folder, which Cline's settings live under too. */
export const vscodeUserDir = (context: Pick<ConnectContext, 'home' | 'env'>) =>
  path.join(appSettingsDir(context), 'Code', 'User');

const configFile = (context: Pick<ConnectContext, 'home' | 'env'>) => path.join(vscodeUserDir(context), 'mcp.json');

export const vscode: ToolDefinition = mcpClientTool({
  id: 'vscode',
  name: 'VS Code',
  aliases: ['code', 'copilot'],
  docs: [
    'https://code.visualstudio.com/docs/copilot/customization/mcp-servers',
    'https://code.visualstudio.com/docs/copilot/reference/mcp-configuration',
  ],
  configFile,
  member: 'servers',
  entryFields: { type: 'stdio' },
  note: 'VS Code asks to trust the server the first time it starts it (MCP: List Servers shows it).',
});
