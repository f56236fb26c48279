// Every tool connect knows: agent tools pointed at the gateway, and MCP clients given the MCP hub. Adding one is
// its file and one entry here, plus its id in shared/bridge/connect-types.ts: the record below does not compile
// until every id has its definition. The CLI and the panel list them in the ids' order.

import { connectToolIds, type ConnectToolId } from '../../shared/bridge/connect-types.js';
import { claudeCode } from './claude-code.js';
import { claudeDesktop } from './claude-desktop.js';
import { cline } from './cline.js';
import { codex } from './codex.js';
import { continueTool } from './continue.js';
import { cursor } from './cursor.js';
import { geminiCli } from './gemini-cli.js';
import { opencode } from './opencode.js';
import { qwenCode } from './qwen-code.js';
import type { ToolDefinition } from './tool-definition.js';
import { vscode } from './vscode.js';

const definitions: Record<ConnectToolId, ToolDefinition> = {
  codex,
  'claude-code': claudeCode,
  'gemini-cli': geminiCli,
  opencode,
  'qwen-code': qwenCode,
  continue: continueTool,
  'claude-desktop': claudeDesktop,
  cursor,
  vscode,
  cline,
};

export const connectTools: readonly ToolDefinition[] = connectToolIds.map((id) => definitions[id]);

/** The tool with this id or alias, or undefined. */
export function findTool(name: string, tools: readonly ToolDefinition[] = connectTools): ToolDefinition | undefined {
  const wanted = name.trim().toLowerCase();
  return tools.find((tool) => tool.id === wanted || tool.aliases.includes(wanted));
}
