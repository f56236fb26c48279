// What connect knows of one agent tool: the files it reads and how to point each at the gateway. One definition
// per tool (codex.ts, claude-code.ts…), listed in tools.ts; connections.ts does the rest (key, backups, undo) the
// same way for all of them.

import path from 'node:path';
import type { ConnectToolId } from '../../shared/bridge/connect-types.js';

/** The command that starts the hub, as the client will run it. */
export interface HubCommand {
  command: string;
  args: string[];
}

export interface ConnectContext {
  /** The home directory the tool's files are under (a temporary one in tests). */
  home: string;
  /** Variables that move a tool's files (CODEX_HOME, XDG_CONFIG_HOME, GEMINI_CLI_HOME). */
  env: Readonly<Record<string, string | undefined>>;
  /** The gateway's origin, `http://127.0.0.1:7420`. */
  origin: string;
  /** `<provider>/<model>` or an alias; null when none was chosen. */
  model: string | null;
  /** The key's secret, or a placeholder for `--print`. */
  secret: string;
  /** How an MCP client starts the hub over stdio (`switchyard mcp serve`). */
  hubCommand: HubCommand;
}

export interface FileEdit {
  path: string;
  /** What the edit sets, as the tool's docs name it. */
  keys: string[];
  holdsSecret: boolean;
  /** The file's new text from its current one (null: no file yet). Throws ConnectError when it cannot edit safely. */
  apply(current: string | null): string;
}

export interface ToolDefinition {
  id: ConnectToolId;
  name: string;
  /** Other names the CLI accepts (`claude` for `claude-code`). */
  aliases: string[];
  /** Where the settings below are documented (also in a comment in each tool's file). */
  docs: string[];
  /** False for tools that list models in their config and so cannot be connected without one. */
  modelOptional: boolean;
  /** False for MCP clients, which launch the hub over stdio and need no gateway key (default true). */
  needsKey?: boolean;
  /** The files connect changes, for listing (they do not depend on the gateway or the model). */
  files(context: Pick<ConnectContext, 'home' | 'env'>): string[];
  edits(context: ConnectContext): FileEdit[];
  /** What the person must still do. */
  notes(context: ConnectContext): string[];
}

/** `$VAR` when set, else the path under home. */
export function homeDir(context: Pick<ConnectContext, 'home' | 'env'>, variable: string, ...under: string[]): string {
  return context.env[variable] || path.join(context.home, ...under);
}

/** The provider name tools show for the gateway, and the env variable that holds its key where a tool wants one. */
export const providerName = 'Switchyard';
export const keyVariable = 'SWITCHYARD_API_KEY';

/** The note every tool without a model gets: its own model names reach the gateway, which needs aliases for them. */
export function aliasNote(tool: string, examples: string): string {
  return (
    `${tool} sends its own model names (${examples}): route them with \`switchyard models alias NAME PROVIDER/MODEL\`, ` +
    `or connect again with --model PROVIDER/MODEL.`
  );
}
