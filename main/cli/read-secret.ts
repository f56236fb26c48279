// Reads a secret from standard input: piped input is taken whole (for scripts), a terminal gets a prompt that
// does not echo what is typed. Secrets never go through argv, where other users and shell history can see them.

import readline from 'node:readline';

export async function readSecretFromStdin(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  const terminal = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  let muted = false;
  // readline echoes through _writeToOutput; muting it after the prompt hides the typed secret.
  const internals = terminal as unknown as { _writeToOutput: (text: string) => void };
  const write = internals._writeToOutput.bind(terminal);
  internals._writeToOutput = (text: string) => {
    if (!muted) write(text);
  };
  try {
    return await new Promise<string>((resolve) => {
      terminal.question(prompt, (answer) => resolve(answer));
      muted = true;
    });
  } finally {
    terminal.close();
    process.stderr.write('\n');
  }
}

/** A secret handed over in an environment variable (`--…-env VAR`); an unset or empty one is an error. */
export function readSecretFromEnv(variable: string): string {
  const value = process.env[variable];
  if (value === undefined || value === '') throw new Error(`Environment variable ${variable} is not set.`);
  return value;
}
