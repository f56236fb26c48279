// Runs CLI commands in-process for tests: a fresh program with only the commands under test, what they and
// commander print captured, and a parse error thrown instead of exiting the process.

import { Command } from 'commander';
import type { CommandContext } from './command-context.js';
import type { Output } from './output.js';

/** Lines printed, to stdout and to stderr. */
export interface CapturedOutput {
  out: string[];
  err: string[];
}

/** Runs `switchyard <argv…>` with the commands `register` adds; `openApp` is what they open the app with. */
export async function runCommands(
  register: (program: Command, context: CommandContext) => void,
  captured: CapturedOutput,
  openApp: CommandContext['openApp'],
  argv: string[],
): Promise<void> {
  const output: Output = { out: (text) => captured.out.push(text), err: (text) => captured.err.push(text) };
  const program = new Command('switchyard').exitOverride().configureOutput({
    writeOut: (text) => output.out(text),
    writeErr: (text) => output.err(text),
  });
  register(program, { output, openApp });
  await program.parseAsync(['node', 'switchyard', ...argv]);
}

/** For commands that open no app: opening one throws `why`. */
export function noApp(why: string): CommandContext['openApp'] {
  return () => {
    throw new Error(why);
  };
}
