// `switchyard mcp …`: the MCP servers of <data-dir>/mcp_settings.json from a terminal. The CLI is short-lived:
// each command starts the servers it needs (no restarts, no file watching), does its work and stops them,
// whole process trees included, before it exits.

import type { Command } from 'commander';
import { serveHubOverStdio } from '../mcp/index.js';
import { withApp, type CommandContext } from './command-context.js';
import { registerMcpImportCommand } from './mcp-import-command.js';
import { registerMcpRegistryCommands } from './mcp-registry-commands.js';
import { registerMcpServerCommands } from './mcp-server-commands.js';
import { registerMcpSignInCommands } from './mcp-sign-in-commands.js';
import { dataDirOption, databaseUrlOption, hubWaitOption } from './shared-options.js';

export function registerMcpCommands(program: Command, context: CommandContext): void {
  const mcp = program
    .command('mcp')
    .description('the local MCP tool servers configured in <data-dir>/mcp_settings.json');
  registerMcpServerCommands(mcp, context.output);
  registerMcpSignInCommands(mcp, context.output);
  registerMcpHubCommand(mcp, context);
  registerMcpImportCommand(mcp, context.output);
  registerMcpRegistryCommands(mcp, context);
}

/** `switchyard mcp serve`: the hub over stdio, for an MCP client that launches it. */
function registerMcpHubCommand(mcp: Command, context: CommandContext): void {
  mcp
    .command('serve')
    .description(
      "the MCP hub over stdio: every enabled server's tools, resources and prompts to one MCP client " +
        '(what `switchyard connect claude-desktop` configures); runs until the client closes stdin',
    )
    .addOption(hubWaitOption())
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options: { dataDir?: string; hubWait?: number }) =>
      // stdout carries the protocol: nothing else may be printed there (logs go to stderr).
      withApp(context, options, async (app) => {
        await app.mcp.start();
        const ended = serveHubOverStdio(app.mcp, {
          logger: app.logger,
          onToolCall: app.recordHubCall,
          ...(options.hubWait === undefined ? {} : { startupWaitMs: options.hubWait }),
        });
        await Promise.race([ended, untilSignal()]);
      }),
    );
}

/** Resolves at the first SIGINT or SIGTERM, so that the command can stop its servers before it exits. */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}
