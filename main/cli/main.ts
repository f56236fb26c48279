// Entry point of the `switchyard` command.

import { ApiError } from '../../shared/api/index.js';
import { processOutput } from './output.js';
import { createProgram } from './program.js';

export async function runCli(argv: string[]): Promise<number> {
  try {
    await createProgram(processOutput).parseAsync(argv);
    return 0;
  } catch (error) {
    const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
    processOutput.err(`switchyard: ${message}`);
    return 1;
  }
}

const exitCode = await runCli(process.argv);
process.exitCode = exitCode;
