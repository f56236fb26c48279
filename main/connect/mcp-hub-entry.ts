// The MCP clients connect knows (Claude Desktop, Cursor, VS Code, Cline) all get the same thing: one server entry
// named `switchyard` that launches `switchyard mcp serve`, the hub over stdio, which offers every enabled server
// of Switchyard's mcp_settings.json. Launched by the client as the person, it needs no gateway key, so none is
// created and no secret lands in these files. Each client nests the entry under its own member (`mcpServers`,
// `servers`) and may want a field of its own (VS Code's `type`).

import os from 'node:os';
import path from 'node:path';
import type { ConnectToolId } from '../../shared/bridge/connect-types.js';
import { setJsonValues } from './edit-json.js';
import type { ConnectContext, FileEdit, HubCommand, ToolDefinition } from './tool-definition.js';

/** The entry's name in the clients' configs. */
export const hubEntryName = 'switchyard';

/** Without a known path to this build: `switchyard` on the PATH, as `npm install -g` or `npm link` put it. */
export const defaultHubCommand: HubCommand = { command: 'switchyard', args: ['mcp', 'serve'] };

/** The edit that sets `<member>.switchyard` in a client's JSON config file. */
function hubEntryEdit(
  file: string,
  member: string,
  context: ConnectContext,
  extra: Record<string, unknown> = {},
): FileEdit {
  const entry = { ...extra, command: context.hubCommand.command, args: context.hubCommand.args };
  return {
    path: file,
    keys: [`${member}.${hubEntryName}`],
    holdsSecret: false,
    apply: (current) => setJsonValues(current, [[[member, hubEntryName], entry]], file),
  };
}

/** What every MCP client's connect says: what it will run, and that the servers are Switchyard's. */
function hubNotes(client: string, context: ConnectContext): string[] {
  return [
    `${client} will run: ${[context.hubCommand.command, ...context.hubCommand.args].join(' ')} ` +
      '(the MCP hub over stdio; it needs no key and no running gateway).',
    `Restart ${client}: its "${hubEntryName}" server offers the tools of every enabled server in Switchyard's ` +
      'MCP screen, named <server>__<tool>.',
  ];
}

/** Where desktop apps keep their settings: ~/Library/Application Support, %APPDATA%, or $XDG_CONFIG_HOME. */
export function appSettingsDir(context: Pick<ConnectContext, 'home' | 'env'>, platform = os.platform()): string {
  if (platform === 'darwin') return path.join(context.home, 'Library', 'Application Support');
  if (platform === 'win32') return context.env.APPDATA || path.join(context.home, 'AppData', 'Roaming');
  return context.env.XDG_CONFIG_HOME || path.join(context.home, '.config');
}

/** What differs between the MCP clients: where their config file is, how they nest the entry, what they show. */
export interface McpClient {
  id: ConnectToolId;
  name: string;
  aliases: string[];
  docs: string[];
  configFile(context: Pick<ConnectContext, 'home' | 'env'>): string;
  /** The member the client keeps its servers under (`mcpServers`, `servers`). */
  member: string;
  /** Fields of the client's own in the entry, beside `command` and `args`. */
  entryFields?: Record<string, unknown>;
  /** Where the person finds the server in the client. */
  note: string;
}

/** An MCP client as connect lists it: it launches the hub, so it needs no key and no model. */
export function mcpClientTool(client: McpClient): ToolDefinition {
  return {
    id: client.id,
    name: client.name,
    aliases: client.aliases,
    docs: client.docs,
    modelOptional: true,
    needsKey: false,
    files: (context) => [client.configFile(context)],
    edits: (context) => [hubEntryEdit(client.configFile(context), client.member, context, client.entryFields)],
    notes: (context) => [...hubNotes(client.name, context), client.note],
  };
}
