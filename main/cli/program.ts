// The `switchyard` command. Each subcommand opens the data dir itself, does its work and closes it, so the CLI
// can run next to a running `switchyard serve` on the same data. This file only registers the commands; what they
// share comes from command-context.ts and shared-options.ts.

import { Command } from 'commander';
import { openApp, resolveDataDir } from '../app/index.js';
import { appVersion } from '../bridge/index.js';
import type { CommandContext } from './command-context.js';
import { registerConnectCommand } from './connect-command.js';
import { registerCreditsCommands } from './credits-commands.js';
import { registerKeyCommands } from './keys-commands.js';
import { registerMcpCommands } from './mcp-commands.js';
import { registerModelsCommands } from './models-commands.js';
import { processOutput, type Output } from './output.js';
import { registerPricesCommands } from './prices-commands.js';
import { registerProviderCommands } from './provider-commands.js';
import { registerSecretKeyCommands } from './secret-key-commands.js';
import { registerServeCommand } from './serve-command.js';
import { registerUiCommand } from './ui-command.js';
import { registerUsageCommand } from './usage-commands.js';
import { versionFlagDescription, versionFlags } from './version-flag.js';

export function createProgram(output: Output = processOutput): Command {
  const context: CommandContext = {
    output,
    openApp: (flags, { instance, hubStartupWaitMs } = {}) =>
      openApp({
        dataDir: resolveDataDir(flags.dataDir),
        databaseUrl: flags.databaseUrl,
        instance,
        hubStartupWaitMs,
        onSecretStoreWarning: (warning) => output.err(`warning: ${warning}`),
      }),
  };
  const program = new Command('switchyard')
    .description('A local OpenAI-compatible gateway to many LLM providers, with API keys and MCP tool servers.')
    .version(appVersion(), versionFlags, versionFlagDescription)
    .configureOutput({ writeOut: (text) => output.out(text), writeErr: (text) => output.err(text) })
    .showHelpAfterError();
  registerServeCommand(program, context);
  registerUiCommand(program, context);
  registerKeyCommands(program, context);
  registerProviderCommands(program, context);
  registerMcpCommands(program, context);
  registerCreditsCommands(program, context);
  registerUsageCommand(program, context);
  registerPricesCommands(program, context);
  registerModelsCommands(program, context);
  registerConnectCommand(program, context);
  registerSecretKeyCommands(program, context);
  return program;
}
