// One measurement of the benchmark on a machine that other work shares: it waits for a quiet moment, takes the
// measurement again when other processes used CPU meanwhile, keeps the least disturbed attempt, and records how
// many cores others used, so that the report can say which figures are noisy.

import type { LoadJob, LoadResult } from './load-generator.js';
import { cpuSeconds, CpuMeter, type LoadWorker } from './processes.js';

export const log = (text: string) => process.stderr.write(`bench: ${text}\n`);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Measured = LoadResult & { cpuMsPerRequest?: number };

export interface Runner {
  /**
   * One measurement. On a machine that others use too, it starts in a quiet moment, and one disturbed by other
   * processes is taken again (up to `attempts` times); the least disturbed attempt counts. With `cpuOf`, the CPU
   * that process (and its children) spent per response.
   */
  run(name: string, job: LoadJob, attempts?: number, cpuOf?: number): Promise<Measured>;
  /** Counts these processes as the bench's own from now on (not as other work on the machine). */
  track(pids: () => number[]): void;
  /** Cores used by other processes, per measurement: above a small share, the figures are noisy. */
  foreignLoad: { phase: string; cores: number }[];
}

export function createRunner(
  worker: LoadWorker,
  ours: () => number[],
  notes: string[],
  onMeasured: (name: string, responses: number) => void = () => undefined,
): Runner {
  const sources = [ours];
  const allOurs = () => sources.flatMap((source) => source());
  const foreignLoad: Runner['foreignLoad'] = [];
  const quietCores = 0.15;
  /** Waits (up to `maxMs`) for half a second in which other processes use less than `quietCores`. */
  const waitForQuiet = async (maxMs: number) => {
    const deadline = Date.now() + maxMs;
    for (;;) {
      const meter = new CpuMeter(allOurs);
      await sleep(500);
      if (meter.read().foreignCores < quietCores || Date.now() > deadline) return;
    }
  };
  const run = async (name: string, job: LoadJob, attempts = 3, cpuOf?: number): Promise<Measured> => {
    const phase = `${name} ${job.body.includes('"stream":true') ? 'stream' : 'whole'} @${job.connections}`;
    let best: { result: Measured; cores: number } | null = null;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      await waitForQuiet(attempts > 1 ? 15_000 : 0);
      const meter = new CpuMeter(allOurs);
      const cpuBefore = cpuOf === undefined ? 0 : cpuSeconds(cpuOf);
      const measured = await worker.run(job);
      const cores = meter.read().foreignCores;
      const result =
        cpuOf === undefined
          ? measured
          : {
              ...measured,
              cpuMsPerRequest: ((cpuSeconds(cpuOf) - cpuBefore) * 1000) / Math.max(1, measured.responses),
            };
      onMeasured(name, result.responses);
      if (!best || cores < best.cores) best = { result, cores };
      if (cores <= quietCores) break;
      log(`${phase}: other processes used ${cores.toFixed(2)} cores meanwhile${attempt < attempts ? '; again' : ''}`);
    }
    const { result, cores } = best!;
    foreignLoad.push({ phase, cores });
    if (result.errors > 0) {
      notes.push(`${name}: ${result.errors} failed request(s) in one run; first: ${result.firstError ?? '?'}`);
    }
    return result;
  };
  return { run, track: (pids) => sources.push(pids), foreignLoad };
}
