// Cline: `mcpServers` in cline_mcp_settings.json, kept in the extension's storage under VS Code's User folder.
// Cline's entries take `disabled` (and `autoApprove`); the hub's entry is written enabled.
//
// Verified against: https://docs.cline.bot/mcp/configuring-mcp-servers

import path from 'node:path';
import { hubEntryEdit, hubNotes } from './mcp-hub-entry.js';
import type { ConnectContext, ToolDefinition } from './tool-definition.js';
import { vscodeUserDir } from './vscode.js';

const configFile = (context: Pick<ConnectContext, 'home' | 'env'>) =>
  path.join(vscodeUserDir(context), 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json');

export const cline: ToolDefinition = {
  id: 'cline',
  name: 'Cline',
  aliases: [],
  docs: ['https://docs.cline.bot/mcp/configuring-mcp-servers'],
  modelOptional: true,
  needsKey: false,
  files: (context) => [configFile(context)],
  edits: (context) => [hubEntryEdit(configFile(context), 'mcpServers', context, { disabled: false })],
  notes: (context) => [...hubNotes('Cline', context), "Cline's MCP Servers view shows the server and its tools."],
};
