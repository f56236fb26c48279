// The bench's team server (decision 017): a throwaway PostgreSQL cluster and two `switchyard serve --database-url …`
// instances with separate data dirs in front of the bench's fake upstream, set up through the CLI as a team would.
// The bench measures one instance alone, then both with the connections alternating between them.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPostgres, type TestPostgres } from '../test/support/postgres.js';
import { setUpGateway, startGateway, type GatewayEnvironment, type Running } from './processes.js';

export interface TeamServer {
  instances: [Running, Running];
  /** A gateway key the instances share. */
  apiKey: string;
  /** Every process of the team: the PostgreSQL server (and its backends) and the instances. */
  pids(): number[];
  stop(): Promise<void>;
}

/**
 * Starts the cluster and both instances, with the provider `fake` at `upstreamUrl`. Answers why not, in a sentence,
 * where PostgreSQL cannot start (not installed: the bench's other rows run without it).
 */
export async function startTeamServer(upstreamUrl: string, providerKey: string): Promise<TeamServer | string> {
  let postgres: TestPostgres;
  try {
    postgres = await startPostgres();
  } catch (error) {
    return (error as Error).message;
  }
  const dataDirs: string[] = [];
  const instances: Running[] = [];
  const stop = async () => {
    for (const instance of instances) await instance.stop();
    await postgres.stop();
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const env = {
      SWITCHYARD_DATABASE_URL: await postgres.createDatabase(),
      SWITCHYARD_SECRET_KEY: randomBytes(32).toString('base64'),
      SWITCHYARD_SECRET_STORE: 'file',
      SWITCHYARD_LOG_LEVEL: 'warn',
      BENCH_PROVIDER_KEY: providerKey,
    };
    const environment = (): GatewayEnvironment => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-bench-team-'));
      dataDirs.push(dataDir);
      return { dataDir, env };
    };
    const setup = environment();
    const key = setUpGateway(setup, upstreamUrl);
    instances.push(await startGateway(environment()), await startGateway(environment()));
    // The postmaster's pid is the first line of postmaster.pid; its backends are its children.
    const postmaster = Number(readFileSync(path.join(postgres.folder, 'data/postmaster.pid'), 'utf8').split('\n')[0]);
    return {
      instances: instances as [Running, Running],
      apiKey: key,
      pids: () => [postmaster, ...instances.map((instance) => instance.child.pid!)],
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
