// Cline: `mcpServers` in cline_mcp_settings.json, kept in the extension's storage under VS Code's User folder.
// Cline's entries take `disabled` (and `autoApprove`); the hub's entry is written enabled.
//
// Verified against: https://docs.cline.bot/mcp/configuring-mcp-servers

import path from 'node:path';
import { mcpClientTool } from './mcp-hub-entry.js';
import type { ConnectContext, ToolDefinition } from './tool-definition.js';
import { vscodeUserDir } from './vscode.js';

const configFile = (context: Pick<ConnectContext, 'home' | 'env'>) =>
  path.join(vscodeUserDir(context), 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json');

export const cline: ToolDefinition = mcpClientTool({
  id: 'cline',
  name: 'Cline',
  aliases: [],
  docs: ['https://docs.cline.bot/mcp/configuring-mcp-servers'],
  configFile,
  member: 'mcpServers',
  entryFields: { disabled: false },
  note: "Cline's MCP Servers view shows the server and its tools.",
});
