// The `switchyard` command. Each subcommand opens the data dir itself, does its work and closes it, so the CLI
// can run next to a running `switchyard serve` on the same data.

import { Command, InvalidArgumentError, Option } from 'commander';
import { openApp, resolveDataDir, type App } from '../app/index.js';
import { appVersion } from '../bridge/index.js';
import { registerConnectCommand } from './connect-command.js';
import { registerCreditsCommands } from './credits-commands.js';
import { registerKeyCommands } from './keys-commands.js';
import { registerMcpCommands } from './mcp-commands.js';
import { registerModelsCommands } from './models-commands.js';
import { printList, processOutput, type ListFormat, type Output } from './output.js';
import { registerPricesCommands } from './prices-commands.js';
import { registerProviderCommands } from './provider-commands.js';
import { registerSecretKeyCommands } from './secret-key-commands.js';
import { registerServeCommand } from './serve-command.js';
import { registerUiCommand } from './ui-command.js';
import { registerUsageCommand } from './usage-commands.js';
import { versionFlagDescription, versionFlags } from './version-flag.js';

/** Where a command's app keeps its state: `--data-dir` and `--database-url`. */
export interface StoreFlags {
  dataDir?: string;
  databaseUrl?: string;
}

export interface CommandContext {
  output: Output;
  /**
   * Opens the app on the data dir chosen by `--data-dir` / SWITCHYARD_DATA_DIR / the OS default, and on the database
   * chosen by `--database-url` / SWITCHYARD_DATABASE_URL (else SQLite in the data dir). `instance`: the process serves
   * requests (`serve`); `hubStartupWaitMs`: see AppOptions.
   */
  openApp(flags: StoreFlags, options?: { instance?: boolean; hubStartupWaitMs?: number }): Promise<App>;
}

export function dataDirOption(): Option {
  return new Option('--data-dir <dir>', 'data folder (default: $SWITCHYARD_DATA_DIR or the OS app-data folder)');
}

export function databaseUrlOption(): Option {
  return new Option(
    '--database-url <url>',
    "a team server's PostgreSQL database, postgres://… (default: $SWITCHYARD_DATABASE_URL, else SQLite in the data folder)",
  );
}

/** `--hub-wait SECONDS` of `serve` and `mcp serve`, parsed to milliseconds (unset: the hub's default). */
export function hubWaitOption(): Option {
  return new Option(
    '--hub-wait <seconds>',
    "how long an MCP hub client's first list waits for servers still starting (default 10; 0: no wait)",
  ).argParser((value) => parseIntegerOption(0, 600)(value) * 1000);
}

export function parseIntegerOption(min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    }
    return Number(value);
  };
}

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

/** Runs a command that uses the app and always closes it, turning failures into one clear line. */
export async function withApp(
  context: CommandContext,
  flags: StoreFlags,
  work: (app: App) => Promise<void> | void,
): Promise<void> {
  const app = await context.openApp(flags);
  try {
    await work(app);
  } finally {
    await app.close();
  }
}

/** `<parent> <name> [--json] [--data-dir <dir>]`: what `list` returns from the app, as a table or as JSON. */
export function addListCommand<Item>(
  parent: Command,
  context: CommandContext,
  command: { name: string; description: string; list(app: App): Item[] | Promise<Item[]> } & ListFormat<Item>,
): Command {
  return parent
    .command(command.name)
    .description(command.description)
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options: { json?: boolean; dataDir?: string }) =>
      withApp(context, options, async (app) =>
        printList(context.output, await command.list(app), options.json, command),
      ),
    );
}

/** `<parent> <name> <what> [--data-dir <dir>]`: removes one thing, or fails saying there is no such thing. */
export function addRemoveCommand(
  parent: Command,
  context: CommandContext,
  command: {
    name: string;
    description: string;
    /** The argument naming what to remove, and its help. */
    argument: [name: string, description: string];
    /** False when there was nothing to remove. */
    remove(app: App, name: string): boolean | Promise<boolean>;
    missing(name: string): string;
    removed(name: string): string;
  },
): Command {
  return parent
    .command(command.name)
    .description(command.description)
    .argument(...command.argument)
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (name: string, options: { dataDir?: string }) =>
      withApp(context, options, async (app) => {
        if (!(await command.remove(app, name))) throw new Error(command.missing(name));
        context.output.out(command.removed(name));
      }),
    );
}
