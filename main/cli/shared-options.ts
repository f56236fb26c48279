// The flags several commands share: where the app keeps its state (`--data-dir`, `--database-url`) and how long an
// MCP hub client's first list waits. A leaf of the CLI: commands import it, it imports none of them.

import { InvalidArgumentError, Option } from 'commander';

/** Where a command's app keeps its state: `--data-dir` and `--database-url`. */
export interface StoreFlags {
  dataDir?: string;
  databaseUrl?: string;
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
