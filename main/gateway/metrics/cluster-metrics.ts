// `serve --workers N` runs N processes, each with its own registry; a scrape reaches one of them, and must see the
// whole server. So a worker asked for /metrics asks the primary, which gathers every worker's registry with
// prom-client's AggregatorRegistry (counters and histograms summed, the target states' one value kept) and
// answers with the text. A single process answers from its own registry.

import cluster from 'node:cluster';
import { createRequire } from 'node:module';
import type PromClient from 'prom-client';

const requestType = 'switchyard:metrics-request';
const answerType = 'switchyard:metrics-answer';
/** A scrape that the primary does not answer in this time fails (prom-client's own wait for workers is 5 s). */
const answerTimeoutMs = 10_000;

interface MetricsRequest {
  type: typeof requestType;
  id: number;
}

interface MetricsAnswer {
  type: typeof answerType;
  id: number;
  text?: string;
  error?: string;
}

/** The scrape: the exposition text and its content type. */
export interface MetricsScrape {
  contentType: string;
  text(): Promise<string>;
}

function promClient(): typeof PromClient {
  return createRequire(import.meta.url)('prom-client') as typeof PromClient;
}

/** This process's scrape: its own registry, or in a worker of `serve --workers` the whole server's through the primary. */
export function scrapeOf(registry: PromClient.Registry): MetricsScrape {
  if (!cluster.isWorker) return { contentType: registry.contentType, text: () => registry.metrics() };
  const { AggregatorRegistry } = promClient();
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry(); // answers the primary's requests for this worker's metrics
  let nextId = 0;
  const waiting = new Map<number, (answer: MetricsAnswer) => void>();
  process.on('message', (message: Partial<MetricsAnswer>) => {
    if (message?.type === answerType && typeof message.id === 'number')
      waiting.get(message.id)?.(message as MetricsAnswer);
  });
  return {
    contentType: registry.contentType,
    text: () =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error('the primary process did not gather the workers’ metrics in time'));
        }, answerTimeoutMs);
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          waiting.delete(id);
          if (answer.text !== undefined) resolve(answer.text);
          else reject(new Error(answer.error ?? 'gathering the workers’ metrics failed'));
        });
        process.send?.({ type: requestType, id } satisfies MetricsRequest);
      }),
  };
}

/** In the primary of `serve --workers`: answers the workers' requests for the whole server's metrics. */
export function answerWorkersMetricsRequests(): void {
  const aggregator = new (promClient().AggregatorRegistry)();
  cluster.on('message', (worker, message: Partial<MetricsRequest>) => {
    if (message?.type !== requestType || typeof message.id !== 'number') return;
    const { id } = message;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: answerType, id, text } satisfies MetricsAnswer),
      (error: unknown) =>
        worker.send({ type: answerType, id, error: (error as Error).message } satisfies MetricsAnswer),
    );
  });
}

/** Whether a message between the primary and a worker is one of these (the primary's own reports are others). */
export function isMetricsMessage(message: unknown): boolean {
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === 'string' && (type.startsWith('switchyard:metrics-') || type.startsWith('prom-client:'));
}
