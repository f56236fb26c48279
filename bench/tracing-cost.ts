// What OpenTelemetry tracing costs the gateway: `switchyard serve` (compiled) without OTEL_* variables and with
// them set to a local OTLP sink, measured in alternating rounds on the same data dir, upstream and workload
// (bench/workloads.ts `throughput`: the gateway's own ceiling, where a per-request cost shows most). The sink
// answers every export at once, so the figures are the gateway's cost (spans, serialization, the export
// requests), not a collector's.
//
//   node --import tsx bench/tracing-cost.ts [--no-build] [--seconds N] [--rounds N]

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { LoadWorker, rssMb, runSwitchyard, startGateway, startUpstream } from './processes.js';
import { build } from './results-file.js';
import { log } from './runner.js';
import { median } from './stats.js';
import { switchyardChatJob } from './workloads.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(name);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const seconds = option('--seconds', 6);
const rounds = option('--rounds', 3);
const connections = 50;

/** An OTLP endpoint that takes every export and counts the spans' bytes. */
async function startSink(): Promise<{ server: Server; url: string; exports: () => number }> {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports: () => exports };
}

if (!args.includes('--no-build')) build();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-tracing-bench-'));
const upstream = await startUpstream();
const sink = await startSink();
const worker = new LoadWorker();
const providerKey = 'sk-bench-provider-key';
const env = { SWITCHYARD_SECRET_STORE: 'file', SWITCHYARD_LOG_LEVEL: 'warn', BENCH_PROVIDER_KEY: providerKey };
try {
  const upstreamUrl = `http://127.0.0.1:${upstream.port}/v1`;
  runSwitchyard(
    ['providers', 'add', 'fake', '--kind', 'openai', '--base-url', upstreamUrl, '--api-key-env', 'BENCH_PROVIDER_KEY'],
    { dataDir, env },
  );
  const key = (
    JSON.parse(runSwitchyard(['keys', 'create', '--name', 'bench', '--json'], { dataDir, env })) as {
      key: string;
    }
  ).key;
  const configurations = {
    off: {},
    on: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: 'switchyard-bench' },
  };
  const results: Record<string, { whole: number[]; streamed: number[]; rssMb: number[] }> = {
    off: { whole: [], streamed: [], rssMb: [] },
    on: { whole: [], streamed: [], rssMb: [] },
  };
  for (let round = 1; round <= rounds; round += 1) {
    for (const [name, extra] of Object.entries(configurations)) {
      const gateway = await startGateway({ dataDir, env: { ...env, ...extra } }, ['--no-ui']);
      try {
        for (const stream of [false, true]) {
          const job = switchyardChatJob(gateway.port, key, 'throughput', stream, connections, seconds * 1000);
          await worker.run({ ...job, durationMs: 1000 }); // warm-up
          const result = await worker.run(job);
          if (result.errors > 0) throw new Error(`${result.errors} errors: ${result.firstError ?? ''}`);
          results[name]![stream ? 'streamed' : 'whole'].push(result.requestsPerSecond);
          log(
            `round ${round} tracing ${name} ${stream ? 'streamed' : 'whole'}: ${result.requestsPerSecond.toFixed(0)} req/s`,
          );
        }
        results[name]!.rssMb.push(rssMb(gateway.child.pid!));
      } finally {
        await gateway.stop();
      }
    }
  }
  const row = (name: string) => {
    const figures = results[name]!;
    return `| tracing ${name} | ${median(figures.whole).toFixed(0)} | ${median(figures.streamed).toFixed(0)} | ${median(figures.rssMb).toFixed(0)} |`;
  };
  const ratio = (kind: 'whole' | 'streamed') => (median(results.on![kind]) / median(results.off![kind])).toFixed(2);
  console.log(`\n${connections} connections, ${seconds} s per figure, median of ${rounds} alternating rounds`);
  console.log('| | whole req/s | streamed req/s | RSS after, MB |\n|---|---|---|---|');
  console.log(`${row('off')}\n${row('on')}`);
  console.log(
    `on/off: whole ${ratio('whole')}, streamed ${ratio('streamed')}; ${sink.exports()} OTLP exports received`,
  );
} finally {
  await worker.close();
  await upstream.stop();
  sink.server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
