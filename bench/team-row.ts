// The team server's row of the bench: one `switchyard serve --database-url …` instance against two on one
// PostgreSQL (bench/team-server.ts starts them), measured with the run's runner.

import os from 'node:os';
import type { LoadJob } from './load-generator.js';
import { pinToCpus } from './processes.js';
import type { Figure } from './report.js';
import { log, type Runner } from './runner.js';
import { startTeamServer } from './team-server.js';
import { switchyardChatJob } from './workloads.js';

export interface Row {
  figures: Figure[];
  notes: string[];
  details: unknown;
}

/**
 * One vs two `switchyard serve --database-url …` instances on a throwaway PostgreSQL: non-streamed throughput at 50
 * connections through one instance, then with the connections alternating between two (as a round-robin load
 * balancer would spread them), and the ratio. Both configurations get every CPU, as `--workers` does.
 */
export async function measureTeamServer(
  runner: Runner,
  upstreamUrl: string,
  providerKey: string,
  settings: { pin: boolean; seconds: (full: number, quick: number) => number },
): Promise<Row> {
  const { seconds } = settings;
  log('one vs two instances on PostgreSQL: starting a cluster and two instances…');
  const team = await startTeamServer(upstreamUrl, providerKey);
  if (typeof team === 'string') {
    const note = `One vs two instances on PostgreSQL: skipped. ${team}`;
    log(note);
    return { figures: [], notes: [note], details: { skipped: team } };
  }
  try {
    runner.track(team.pids);
    const notes: string[] = [];
    const allCpus = `0-${os.availableParallelism() - 1}`;
    if (settings.pin && !team.pids().every((pid) => pinToCpus(pid, allCpus))) {
      notes.push('Could not pin the PostgreSQL row to every CPU (taskset).');
    }
    const [first, second] = team.instances;
    const job = (ports: number[], durationMs: number): LoadJob => ({
      ...switchyardChatJob(first.port, team.apiKey, 'throughput', false, 50, durationMs),
      ports,
    });
    const configurations = { 'postgres-one': [first.port], 'postgres-two': [first.port, second.port] };
    for (const [name, ports] of Object.entries(configurations)) await runner.run(name, job(ports, seconds(2, 1)), 1);
    log('one vs two instances on PostgreSQL: measuring…');
    const one = await runner.run('postgres-one', job(configurations['postgres-one'], seconds(8, 2)));
    const two = await runner.run('postgres-two', job(configurations['postgres-two'], seconds(8, 2)));
    notes.push(
      'One vs two instances on PostgreSQL: `switchyard serve --database-url …` instances with separate data dirs on ' +
        'one throwaway local cluster (fsync off), the zero-latency model, the load generator alternating ' +
        'connections between the two instances; the instances and PostgreSQL on every CPU. On a machine with few ' +
        'cores, two instances share them with the database, the load generator and the upstream: the ratio then ' +
        'shows what a second instance costs more than what it adds.',
    );
    return {
      figures: [
        {
          id: 'rps-whole-50-postgres-one',
          label: 'Non-streamed requests per second (50 conns, one `serve --database-url` instance on PostgreSQL)',
          unit: 'req/s',
          switchyard: one.requestsPerSecond,
          comparison: 'info',
        },
        {
          id: 'rps-whole-50-postgres-two',
          label: 'Non-streamed requests per second (50 conns, two instances on one PostgreSQL, load spread over both)',
          unit: 'req/s',
          switchyard: two.requestsPerSecond,
          comparison: 'info',
        },
        {
          id: 'postgres-two-over-one',
          label: 'Two instances on PostgreSQL ÷ one (non-streamed throughput, 50 conns)',
          unit: '×',
          switchyard: one.requestsPerSecond > 0 ? two.requestsPerSecond / one.requestsPerSecond : null,
          comparison: 'info',
        },
      ],
      notes,
      details: { one, two },
    };
  } finally {
    await team.stop();
  }
}
