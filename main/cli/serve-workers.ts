// `switchyard serve --workers N`: N gateway processes on one port (node:cluster), for machines where one process
// and its single core are the limit. The primary forks the workers, prints the URL once they all listen, restarts
// one that dies, and on SIGINT/SIGTERM has them drain (each finishes its own streams) before it exits.
//
// Shared state stays correct across workers because it lives in SQLite: a deleted key or a changed provider is
// seen by every worker at its next request (PRAGMA data_version), and usage rows are batched and written per
// worker. Two things are per process and so multiply: rate limits (each worker counts its own requests, decision
// 004) and the spend cache's view of rows another worker has not written yet (up to one batch, ~100 ms). Workers
// serve the API only: the browser UI and MCP servers belong to a single `switchyard serve`. See decision 009.

import cluster, { type Worker } from 'node:cluster';
import { answerWorkersMetricsRequests, isMetricsMessage, openAIBaseUrlOf } from '../gateway/index.js';
import type { Output } from './output.js';

/** What a worker tells the primary. */
export type WorkerReport = { type: 'listening'; baseUrl: string } | { type: 'failed'; message: string };

export function isServeWorker(): boolean {
  return cluster.isWorker;
}

/** In a worker: tells the primary how it went. */
export function reportToPrimary(report: WorkerReport): void {
  process.send?.(report);
}

/**
 * Runs the primary until every worker has stopped. Rejects when a worker fails to start. With `metrics`, a worker's
 * GET /metrics is answered with every worker's metrics, gathered here.
 */
export async function runServePrimary(count: number, output: Output, options: { metrics: boolean }): Promise<void> {
  // Round-robin hand-off by the primary (the default except on Windows) spreads connections evenly; keep-alive
  // connections make its per-connection cost negligible.
  cluster.schedulingPolicy = cluster.SCHED_RR;
  if (options.metrics) answerWorkersMetricsRequests();
  let stopping = false;
  const workers = new Set<Worker>();
  let allStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (allStopped = resolve));

  const fork = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork();
      workers.add(worker);
      let listening = false;
      worker.on('message', (report: WorkerReport) => {
        if (isMetricsMessage(report)) return;
        if (report.type === 'listening') {
          listening = true;
          resolve(report.baseUrl);
        } else reject(new Error(report.message));
      });
      worker.on('exit', (code, signal) => {
        workers.delete(worker);
        if (stopping) {
          if (workers.size === 0) allStopped();
          return;
        }
        if (!listening) {
          reject(new Error(`a gateway worker exited with ${signal ?? code} before listening`));
          return;
        }
        output.err(`a gateway worker exited with ${signal ?? code}; starting another.`);
        fork().catch((error: unknown) => output.err(`could not restart a worker: ${(error as Error).message}`));
      });
    });

  let baseUrl: string;
  try {
    [baseUrl] = (await Promise.all(Array.from({ length: count }, fork))) as [string];
  } catch (error) {
    stopping = true;
    for (const worker of workers) worker.kill('SIGKILL');
    throw error;
  }
  output.out(`Switchyard gateway listening at ${baseUrl}`);
  output.out(`OpenAI-compatible base URL (for OpenAI and OpenRouter SDKs and tools): ${openAIBaseUrlOf(baseUrl)}`);
  output.err(
    `${count} gateway workers (the browser UI, MCP servers and the MCP hub at /mcp need a single process). Press Ctrl+C to stop.`,
  );

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      output.err(`${signal} again: stopping the workers without waiting.`);
      for (const worker of workers) worker.kill('SIGKILL');
      return;
    }
    stopping = true;
    output.err(`${signal}: the workers finish their in-flight requests…`);
    if (workers.size === 0) allStopped();
    for (const worker of workers) worker.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await stopped;
  output.err('Stopped.');
}
