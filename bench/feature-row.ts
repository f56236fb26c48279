// The rows of the gateway's team features (decisions 029–033): `switchyard serve` with each feature off and on —
// the response cache (every request a hit, and every request a miss), Prometheus metrics, OpenTelemetry traces
// to a local OTLP sink — measured in alternating rounds against the same upstream and workload, each
// configuration with a data dir of its own. With a baseline build (`--baseline DIR`: a checkout of an earlier
// commit with its dist/ built), the features-off gateway is also measured against it: the hot path must be as
// fast with the features off as it was before they existed.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { LoadJob } from './load-generator.js';
import {
  cpuSeconds,
  pinToCpus,
  setUpGateway,
  startGateway,
  type GatewayEnvironment,
  type Running,
} from './processes.js';
import type { Figure } from './report.js';
import { log, sleep, type Runner } from './runner.js';
import { median } from './stats.js';
import { switchyardChatJob } from './workloads.js';

export interface FeatureConfiguration {
  name: string;
  /** What the row says it is. */
  label: string;
  args?: string[];
  env?: Record<string, string>;
  /** Headers every request sends (a cache opt-in). */
  headers?: Record<string, string>;
  /** Every request different (no cache has seen it). */
  unique?: boolean;
  /** Another build to run (the baseline). */
  root?: string;
}

export interface FeatureRow {
  figures: Figure[];
  notes: string[];
  details: unknown;
}

/** An OTLP endpoint that takes every export at once: the figures are the gateway's cost, not a collector's. */
async function startOtlpSink(): Promise<{ server: Server; url: string; exports: () => number }> {
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

/**
 * Waits (up to 15 s) until these processes use under 3 % of a core: a gateway keeps writing the usage rows of a
 * measurement for a while after it, on the core the next gateway is measured on.
 */
async function untilIdle(pids: number[]): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const before = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    await sleep(300);
    const used = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - before;
    if (used < 0.3 * 0.03) return;
  }
}

/** The configurations measured: features off, each feature on, and the baseline build when given. */
export function featureConfigurations(otlpUrl: string, baseline: string | null): FeatureConfiguration[] {
  const configurations: FeatureConfiguration[] = [
    { name: 'off', label: 'every feature off (the defaults)', args: ['--no-metrics'] },
    { name: 'metrics', label: 'Prometheus metrics on' },
    {
      name: 'tracing',
      label: 'OpenTelemetry traces on',
      args: ['--no-metrics'],
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl, OTEL_SERVICE_NAME: 'switchyard-bench' },
    },
    {
      name: 'cache-miss',
      label: 'response cache on, every request new',
      args: ['--no-metrics', '--cache-ttl', '300'],
      headers: { 'x-switchyard-cache': 'force' },
      unique: true,
    },
    {
      name: 'cache-hit',
      label: 'response cache on, every request a hit',
      args: ['--no-metrics', '--cache-ttl', '300'],
      headers: { 'x-switchyard-cache': 'force' },
    },
  ];
  if (baseline) configurations.push({ name: 'baseline', label: `the baseline build (${baseline})`, root: baseline });
  return configurations;
}

export async function measureFeatures(
  runner: Runner,
  upstreamUrl: string,
  providerKey: string,
  settings: { pin: boolean; quick: boolean; seconds: (full: number, quick: number) => number; baseline: string | null },
): Promise<FeatureRow> {
  const { seconds } = settings;
  const sink = await startOtlpSink();
  const configurations = featureConfigurations(sink.url, settings.baseline);
  const running: { configuration: FeatureConfiguration; gateway: Running; key: string; dataDir: string }[] = [];
  const notes: string[] = [];
  try {
    log(`features: starting ${configurations.length} gateways…`);
    for (const configuration of configurations) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), `switchyard-bench-${configuration.name}-`));
      const env = {
        SWITCHYARD_SECRET_STORE: 'file',
        SWITCHYARD_LOG_LEVEL: 'warn',
        BENCH_PROVIDER_KEY: providerKey,
        ...configuration.env,
      };
      const environment: GatewayEnvironment = {
        dataDir,
        env,
        ...(configuration.root ? { root: configuration.root } : {}),
      };
      const key = setUpGateway(environment, upstreamUrl);
      const gateway = await startGateway(environment, ['--no-ui', ...(configuration.args ?? [])]);
      running.push({ configuration, gateway, key, dataDir });
      if (settings.pin && !pinToCpus(gateway.child.pid!, '1')) notes.push('Could not pin the feature rows (taskset).');
    }
    runner.track(() => running.map(({ gateway }) => gateway.child.pid!));

    const job = (entry: (typeof running)[number], stream: boolean, durationMs: number): LoadJob => {
      const base = switchyardChatJob(entry.gateway.port, entry.key, 'throughput', stream, 50, durationMs);
      const { headers = {}, unique = false } = entry.configuration;
      if (!unique) return { ...base, headers: { ...base.headers, ...headers } };
      const body = JSON.parse(base.body) as { messages: { content: string }[] };
      body.messages[1]!.content += ' (request #N#)';
      return { ...base, headers: { ...base.headers, ...headers }, body: JSON.stringify(body), uniqueMarker: '#N#' };
    };
    const samples = new Map<string, { whole: number[]; stream: number[] }>();
    for (const entry of running) {
      samples.set(entry.configuration.name, { whole: [], stream: [] });
      for (const stream of [false, true])
        await runner.run(`feature ${entry.configuration.name}`, job(entry, stream, seconds(2, 1)), 1);
    }
    const rounds = settings.quick ? 1 : 3;
    const pids = running.map(({ gateway }) => gateway.child.pid!);
    for (let round = 1; round <= rounds; round += 1) {
      // Each round starts with another configuration, so that none always follows the same one.
      const order = [...running.slice(round - 1), ...running.slice(0, round - 1)];
      for (const stream of [false, true]) {
        for (const entry of order) {
          await untilIdle(pids);
          log(`features, round ${round}, ${stream ? 'stream' : 'whole'}, ${entry.configuration.name}…`);
          const result = await runner.run(`feature ${entry.configuration.name}`, job(entry, stream, seconds(6, 2)), 1);
          if (result.errors > 0)
            notes.push(
              `Feature row ${entry.configuration.name}: ${result.errors} errors (${result.firstError ?? ''}).`,
            );
          samples.get(entry.configuration.name)![stream ? 'stream' : 'whole'].push(result.requestsPerSecond);
        }
      }
    }
    const throughput = Object.fromEntries(
      [...samples].map(([name, figures]) => [name, { whole: median(figures.whole), stream: median(figures.stream) }]),
    );
    const off = throughput.off!;
    const figures: Figure[] = [];
    for (const configuration of configurations.filter((each) => each.name !== 'off')) {
      const on = throughput[configuration.name]!;
      for (const mode of ['whole', 'stream'] as const) {
        const baseline = configuration.name === 'baseline';
        figures.push({
          id: `feature-${configuration.name}-${mode}`,
          label: baseline
            ? `Features off vs the baseline build, ${mode === 'stream' ? 'streamed' : 'whole'} @50 (off ÷ baseline)`
            : `${configuration.label[0]!.toUpperCase()}${configuration.label.slice(1)}, ${mode === 'stream' ? 'streamed' : 'whole'} @50 (÷ off)`,
          unit: '×',
          switchyard: baseline ? off[mode] / on[mode] : on[mode] / off[mode],
          comparison: baseline ? 'min' : 'info',
          ...(baseline ? { target: 0.97 } : {}),
        });
      }
    }
    notes.push(
      `Feature rows: one \`switchyard serve\` per configuration (${configurations.map((each) => each.name).join(', ')}), ` +
        `each with its own data dir, measured in ${rounds} alternating rounds at 50 connections on the zero-latency ` +
        `model; the figure is the median of the rounds as a share of the features-off gateway. Traces go to a local ` +
        `OTLP sink that answers at once (${sink.exports()} exports received); cache misses send requests no cache has seen.`,
    );
    return { figures, notes, details: { throughput, rounds } };
  } finally {
    for (const { gateway, dataDir } of running) {
      await gateway.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    sink.server.close();
  }
}
