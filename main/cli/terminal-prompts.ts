// Questions asked on the terminal (on stderr, so stdout stays the command's result). A command run from a script
// has no terminal to ask on: it gets "no" and must say --yes or give the values as flags.

import { createInterface } from 'node:readline/promises';

/** Asks on the terminal; false when there is none to ask on (a script must say --yes). */
export async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  return /^y(es)?$/i.test((await ask(question)).trim());
}

/** One line typed on the terminal (echoed: use readSecretFromStdin for a secret). */
export async function ask(question: string): Promise<string> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await prompt.question(question);
  } finally {
    prompt.close();
  }
}
