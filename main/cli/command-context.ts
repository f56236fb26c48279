// What every command is given (where to print, how to open the app) and the set-ups commands share: run with the
// app and always close it, list what the app holds, remove one thing. A leaf of the CLI: commands import it, it
// imports none of them, so program.ts can register them all without a circle.

import type { Command } from 'commander';
import type { App } from '../app/index.js';
import { printList, type ListFormat, type Output } from './output.js';
import { dataDirOption, databaseUrlOption, type StoreFlags } from './shared-options.js';

export interface CommandContext {
  output: Output;
  /**
   * Opens the app on the data dir chosen by `--data-dir` / SWITCHYARD_DATA_DIR / the OS default, and on the database
   * chosen by `--database-url` / SWITCHYARD_DATABASE_URL (else SQLite in the data dir). `instance`: the process serves
   * requests (`serve`); `hubStartupWaitMs`: see AppOptions.
   */
  openApp(flags: StoreFlags, options?: { instance?: boolean; hubStartupWaitMs?: number }): Promise<App>;
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
