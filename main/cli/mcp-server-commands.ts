// `switchyard mcp list|tools|call|logs`: what the configured servers offer and say, each command starting the
// servers it needs and stopping them before it exits.

import type { Command } from 'commander';
import { formatLogEntry, formatProblem, toolResultText } from '../mcp/index.js';
import { formatJson, formatTable, printList, type Output } from './output.js';
import { requireServer, withManager } from './mcp-manager-run.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';

export function registerMcpServerCommands(mcp: Command, output: Output): void {
  mcp
    .command('list')
    .description('start every enabled server, show its status and tool count, then stop them')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options: { json?: boolean; dataDir?: string }) =>
      withManager({ dataDir: options.dataDir, output }, async (manager) => {
        const servers = await manager.waitUntilSettled();
        const fileProblems = manager.problems().filter((problem) => problem.server === undefined);
        if (options.json) return output.out(formatJson({ servers, problems: manager.problems() }));
        for (const problem of fileProblems) output.err(`warning: ${manager.settingsPath}: ${formatProblem(problem)}`);
        if (servers.length === 0) {
          return output.out(
            `No MCP servers in ${manager.settingsPath}. Add one there, or import a config: switchyard mcp import FILE`,
          );
        }
        output.out(
          formatTable(
            ['NAME', 'STATUS', 'TOOLS', 'TRANSPORT'],
            servers.map((server) => [
              server.name,
              server.state,
              server.state === 'connected' ? String(server.toolCount) : '-',
              server.transport ?? '-',
            ]),
          ),
        );
        for (const server of servers) {
          if (server.message && server.state !== 'disabled') output.out(`\n${server.name}: ${server.message}`);
          if (server.warning) output.out(`\n${server.name}: warning: ${server.warning}`);
        }
      }),
    );

  mcp
    .command('tools')
    .description('start one server and list its tools')
    .argument('<server>', 'the server name in mcp_settings.json')
    .option('--json', 'print the tools as the server declares them (with inputSchema)')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (server: string, options: { json?: boolean; dataDir?: string }) =>
      withManager({ dataDir: options.dataDir, server, output }, async (manager) => {
        printList(output, manager.listTools(server), options.json, {
          empty: `Server "${server}" has no tools.`,
          headers: ['NAME', 'DESCRIPTION'],
          row: (tool) => [tool.name, firstLine(tool.description ?? tool.title ?? '')],
        });
      }),
    );

  mcp
    .command('call')
    .description('start one server and call one of its tools; exits with 1 when the tool reports an error')
    .argument('<server>', 'the server name in mcp_settings.json')
    .argument('<tool>', 'the tool name, as `mcp tools SERVER` shows it')
    .option('--args <json>', 'the arguments as a JSON object', '{}')
    .option('--json', 'print the whole result as JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (server: string, tool: string, options: { args: string; json?: boolean; dataDir?: string }) => {
      const args = parseArguments(options.args);
      await withManager({ dataDir: options.dataDir, server, output }, async (manager) => {
        const result = await manager.callTool(server, tool, args);
        output.out(options.json ? formatJson(result) : toolResultText(result));
        if (result.isError) throw new Error(`Tool "${tool}" on server "${server}" returned an error.`);
      });
    });

  mcp
    .command('logs')
    .description('start one server and show what it writes to stderr, from its first line')
    .argument('<server>', 'the server name in mcp_settings.json')
    .option('-f, --follow', 'keep the server running and print new lines until Ctrl+C')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (server: string, options: { follow?: boolean; dataDir?: string }) =>
      withManager(
        { dataDir: options.dataDir, runsUntilInterrupted: options.follow ?? false, output },
        async (manager, interrupted) => {
          await requireServer(manager, server);
          const settled = (await manager.waitUntilSettled()).find((snapshot) => snapshot.name === server);
          for (const line of manager.logs(server)) output.out(line);
          if (settled?.state === 'error') output.err(`Server "${server}" failed: ${settled.message ?? 'unknown'}`);
          if (settled?.state === 'disabled') output.err(`Server "${server}" is disabled, so it was not started.`);
          if (!options.follow) return;
          const following = manager.onLogEntry(server, (entry) => output.out(formatLogEntry(entry)));
          await interrupted;
          following.dispose();
        },
        server,
      ),
    );
}

function parseArguments(json: string): Record<string, unknown> {
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch (error) {
    throw new Error(`--args is not valid JSON: ${(error as Error).message}. Example: --args '{"message": "hi"}'`, {
      cause: error,
    });
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new Error(`--args must be a JSON object, like '{"message": "hi"}'.`);
  }
  return args as Record<string, unknown>;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
