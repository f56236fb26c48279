// `switchyard connect TOOL`: points an agent tool (Codex, Claude Code, gemini-cli…) at the gateway: a key named
// after the tool, the tool's own config files edited (backups kept), and `--undo` to put everything back.

import os from 'node:os';
import type { Command } from 'commander';
import {
  connectToolIds,
  type ConnectPreview,
  type ConnectResult,
  type ConnectToolInfo,
  type ConnectUndoResult,
} from '../../shared/bridge/connect-types.js';
import { resolveDataDir } from '../app/index.js';
import { defaultPort } from '../common/index.js';
import type { ConnectKeys, ToolDefinition } from '../connect/index.js';
import { formatJson, printList, type Output } from './output.js';
import { withApp, type CommandContext } from './command-context.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';

interface ConnectOptions {
  model?: string;
  print?: boolean;
  undo?: boolean;
  list?: boolean;
  gatewayUrl: string;
  json?: boolean;
  dataDir?: string;
}

const defaultGatewayUrl = `http://127.0.0.1:${defaultPort}`;

/** `--print` and the list touch no key: they run without opening (or creating) the data dir's database. */
const noKeys: ConnectKeys = {
  create: () => {
    throw new Error('connect --print creates no key');
  },
  delete: async () => false,
};

export function registerConnectCommand(program: Command, context: CommandContext): void {
  const { output } = context;
  program
    .command('connect')
    .description(
      'point an agent tool at the gateway: creates a key named after the tool and writes it, the base URL and the model into the tool’s own config files (keeping a backup of each); an MCP client (claude-desktop, cursor, vscode, cline) gets the MCP hub (`switchyard mcp serve`) and no key',
    )
    .argument('[tool]', `${connectToolIds.join(', ')} (none: list them)`)
    .option(
      '--model <model>',
      'the model the tool uses: PROVIDER/MODEL or an alias (opencode, Qwen Code and Continue need one)',
    )
    .option(
      '--print',
      'only print the settings to add by hand, with a placeholder where the key goes: writes nothing and creates no key',
    )
    .option('--undo', 'put the tool’s files back as they were before connect and delete its key')
    .option('--list', 'list the tools and whether each is connected')
    .option('--gateway-url <url>', 'where the gateway listens', defaultGatewayUrl)
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .addHelpText(
      'after',
      [
        '',
        'Running connect again for a tool replaces its key (the old one is deleted) and keeps the first backups.',
        'Files that hold the key are made readable by you only (0600).',
        '',
        'Examples:',
        '  switchyard connect codex --model openai/gpt-5',
        '  switchyard connect claude-code --model anthropic/claude-sonnet-4-5',
        '  switchyard connect opencode --model openai/gpt-4o-mini --print',
        '  switchyard connect claude-desktop',
        '  switchyard connect --undo codex',
      ].join('\n'),
    )
    .action(async (toolName: string | undefined, options: ConnectOptions) => {
      if (options.print && options.undo) throw new Error('--print and --undo do not go together.');
      // Imported here: every command, `serve` included, registers this one, and only this one edits tools' files.
      const { findTool, ToolConnections } = await import('../connect/index.js');
      const connectionsOf = (dataDir: string, keys: ConnectKeys) =>
        new ToolConnections({ dataDir, keys, home: os.homedir(), env: process.env, hubCommand: hubCommand(dataDir) });
      if (toolName === undefined || options.list) {
        return printTools(output, connectionsOf(resolveDataDir(options.dataDir), noKeys).list(), options.json);
      }
      const request = { gatewayUrl: options.gatewayUrl, model: options.model ?? null };
      if (options.print) {
        const preview = connectionsOf(resolveDataDir(options.dataDir), noKeys).preview(toolName, request);
        return output.out(options.json ? formatJson(preview) : describePreview(preview));
      }
      await withApp(context, options, async (app) => {
        const connections = connectionsOf(app.dataDir, app.keys);
        if (options.undo) {
          const undone = await connections.undo(toolName);
          return output.out(options.json ? formatJson(undone) : describeUndo(undone, findTool(undone.tool)));
        }
        // The secret is in the files connect wrote (0600); the terminal never shows it.
        const { result } = await connections.connect(toolName, request);
        output.out(options.json ? formatJson(result) : describeResult(result, options.gatewayUrl));
      });
    });
}

/**
 * `switchyard mcp serve` as this very command was started (node, its flags such as `--import tsx`, the entry
 * script), with the data dir spelled out: an MCP client launches it from a desktop menu, without this shell's
 * PATH or SWITCHYARD_DATA_DIR.
 */
function hubCommand(dataDir: string): { command: string; args: string[] } {
  const entry = process.argv[1];
  if (!entry) return { command: 'switchyard', args: ['mcp', 'serve', '--data-dir', dataDir] };
  return { command: process.execPath, args: [...process.execArgv, entry, 'mcp', 'serve', '--data-dir', dataDir] };
}

function printTools(output: Output, tools: ConnectToolInfo[], json: boolean | undefined): void {
  printList(output, tools, json, {
    headers: ['TOOL', 'NAME', 'CONNECTED', 'MODEL', 'KEY', 'FILES'],
    row: (tool) => [
      tool.id,
      tool.name,
      tool.connected ? 'yes' : 'no',
      tool.model ?? (tool.connected ? '(its own)' : ''),
      tool.keyId ?? '',
      tool.files.join(', '),
    ],
    note: 'Connect one with: switchyard connect TOOL --model PROVIDER/MODEL (add --print to only see the settings).',
  });
}

function describeResult(result: ConnectResult, gatewayUrl: string): string {
  const lines = [`Connected ${result.name} to the gateway at ${gatewayUrl}.`];
  if (result.keyId !== null) {
    lines.push(
      result.replacedKeyId
        ? `Created key ${result.keyId} ("${result.keyName}"); it replaces key ${result.replacedKeyId} of the earlier connect, now deleted.`
        : `Created key ${result.keyId} ("${result.keyName}"): Activity shows ${result.name}'s requests under it.`,
    );
  }
  lines.push('', 'Changed:');
  for (const file of result.files) {
    const facts = [
      file.created ? 'new file' : `original kept in ${file.backupPath}`,
      ...(file.holdsSecret ? ['holds the key, readable by you only'] : []),
    ];
    lines.push(`  ${file.path} (${facts.join('; ')})`, `    set ${file.keys.join(', ')}`);
  }
  lines.push('', 'Still to do:', ...result.notes.map((note) => `  - ${note}`));
  lines.push('', `Undo it all with: switchyard connect --undo ${result.tool}`);
  return lines.join('\n');
}

function describePreview(preview: ConnectPreview): string {
  const lines = [`${preview.name}: the settings connect would write (nothing was changed, no key created).`];
  for (const file of preview.files) lines.push('', `# ${file.path}`, file.text.trimEnd());
  lines.push('', ...preview.notes.map((note) => `- ${note}`));
  return lines.join('\n');
}

function describeUndo(undone: ConnectUndoResult, tool: ToolDefinition | undefined): string {
  if (!undone.wasConnected) return `${undone.name} is not connected: nothing to undo.`;
  const lines = [`Disconnected ${undone.name}.`];
  for (const file of undone.files) {
    const action = {
      restored: 'restored from its backup',
      removed: 'removed (connect had created it)',
      'backup-missing': 'left as it is: its backup is gone',
    }[file.action];
    lines.push(`  ${file.path}: ${action}${file.savedAs ? `; your edits since connect are in ${file.savedAs}` : ''}`);
  }
  if (undone.deletedKeyId) lines.push(`Deleted key ${undone.deletedKeyId}.`);
  else if (tool?.needsKey !== false) lines.push('Its key was already deleted.');
  return lines.join('\n');
}
