// A team server for tests: a throwaway PostgreSQL, the environment every instance and command shares
// (SWITCHYARD_DATABASE_URL, a fresh SWITCHYARD_SECRET_KEY), the CLI on that database, and `switchyard serve`
// instances, each with a data folder of its own. close() stops the instances, then the database, and removes the
// folders.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { runCli, startServer, type CliResult, type RunningServer } from '../support/cli.js';
import { startPostgres } from '../support/postgres.js';

export interface Team {
  /** A pool on the team database, for the tests' own checks. */
  pool: pg.Pool;
  env: NodeJS.ProcessEnv;
  /** A command on the team database, from a data folder of its own (nothing of the team is kept there). */
  run(args: string[]): Promise<CliResult>;
  /** run(), which must succeed; answers its standard output. */
  cli(args: string[]): Promise<string>;
  createKey(name: string, ...rules: string[]): Promise<{ key: string; id: string }>;
  /** A `switchyard serve` on the team database (with startTeam's `serveArgs`), or on what `env` says instead. */
  serve(options?: { env?: NodeJS.ProcessEnv }): Promise<RunningServer>;
  close(): Promise<void>;
}

export async function startTeam(options: { env?: NodeJS.ProcessEnv; serveArgs?: string[] } = {}): Promise<Team> {
  const postgres = await startPostgres();
  const databaseUrl = await postgres.createDatabase();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const env: NodeJS.ProcessEnv = {
    SWITCHYARD_DATABASE_URL: databaseUrl,
    SWITCHYARD_SECRET_KEY: randomBytes(32).toString('base64'),
    SWITCHYARD_SECRET_STORE: 'file',
    ...options.env,
  };
  const dataDirs: string[] = [];
  const servers: RunningServer[] = [];
  const newDataDir = () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-team-'));
    dataDirs.push(dataDir);
    return dataDir;
  };
  const run = (args: string[]) => runCli(args, { env: { ...env, SWITCHYARD_DATA_DIR: newDataDir() } });
  const cli = async (args: string[]) => {
    const result = await run(args);
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };
  return {
    pool,
    env,
    run,
    cli,
    async createKey(name, ...rules) {
      return JSON.parse(await cli(['keys', 'create', '--name', name, '--json', ...rules])) as {
        key: string;
        id: string;
      };
    },
    async serve(serveOptions = {}) {
      const server = await startServer(
        ['--data-dir', newDataDir(), ...(options.serveArgs ?? [])],
        serveOptions.env ?? env,
      );
      servers.push(server);
      return server;
    },
    async close() {
      for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.exited));
      await pool.end();
      await postgres.stop();
      for (const dataDir of dataDirs) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
