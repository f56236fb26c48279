// Entry point of the `switchyard` command. The commands' modules (the app, the gateway, SQLite) take most of half a
// second to load, so `switchyard --version` alone is answered before they are: it opens nothing either.

import { appVersion } from '../bridge/app-version.js';
import { processOutput } from './output.js';
import { isVersionRequest } from './version-flag.js';

export async function runCli(argv: string[]): Promise<number> {
  if (isVersionRequest(argv.slice(2))) {
    processOutput.out(appVersion());
    return 0;
  }
  try {
    const { createProgram } = await import('./program.js');
    await createProgram(processOutput).parseAsync(argv);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    processOutput.err(`switchyard: ${message}`);
    return 1;
  }
}

const exitCode = await runCli(process.argv);
process.exitCode = exitCode;
