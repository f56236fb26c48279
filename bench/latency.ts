// The benchmark's added-latency part alone, for an A/B of builds: the `latency` workload against the upstream
// directly, the bare Node proxy and one or more `switchyard serve` builds, interleaved round by round, pinned to
// cores as `npm run bench` pins them.
//
//   node --import tsx bench/latency.ts [whole|stream] [connections] [rounds] [seconds] [--burst]
//     [--upstream=<script>] [build root …]
//
// A build root is a directory with bin/switchyard.js and a compiled dist/ (this tree when none is given), e.g. a
// `git archive` of an older commit with node_modules linked in and `tsc -p tsconfig.build.json` run there.
// Connections open spread over one upstream answer, as in the bench; `--burst` also measures every target with
// all of them opened at once (the bench's method until 2026-11-24). `--upstream` runs another fake upstream script.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { summarize, type LoadJob } from './load-generator.js';
import {
  LoadWorker,
  pinToCpus,
  repoRoot,
  runSwitchyard,
  startBareProxy,
  startGateway,
  startUpstream,
} from './processes.js';
import { chatBody, latencyStartSpreadMs, switchyardChatJob } from './workloads.js';

const flags = process.argv.slice(2).filter((argument) => argument.startsWith('--'));
const [mode = 'whole', connectionsArgument = '50', roundsArgument = '3', secondsArgument = '4', ...roots] = process.argv
  .slice(2)
  .filter((argument) => !argument.startsWith('--'));
const stream = mode === 'stream';
const connections = Number(connectionsArgument);
const rounds = Number(roundsArgument);
const durationMs = Number(secondsArgument) * 1000;
const burst = flags.includes('--burst');
const upstreamScript = flags.find((flag) => flag.startsWith('--upstream='))?.slice('--upstream='.length);
const builds = roots.length > 0 ? roots.map((root) => path.resolve(root)) : [repoRoot];
const providerKey = 'sk-bench-provider-key';
const env = { SWITCHYARD_SECRET_STORE: 'file', SWITCHYARD_LOG_LEVEL: 'warn', BENCH_PROVIDER_KEY: providerKey };

/** `switchyard serve` of one build on a fresh data dir with the fake provider and a key. */
async function serve(root: string, upstreamUrl: string) {
  const environment = { root, dataDir: mkdtempSync(path.join(os.tmpdir(), 'switchyard-latency-')), env };
  const add = ['providers', 'add', 'fake', '--kind', 'openai', '--base-url', upstreamUrl];
  runSwitchyard([...add, '--api-key-env', 'BENCH_PROVIDER_KEY'], environment);
  const created = runSwitchyard(['keys', 'create', '--name', 'bench', '--json'], environment);
  const gateway = await startGateway(environment, ['--no-ui']);
  const stop = async () => {
    await gateway.stop();
    rmSync(environment.dataDir, { recursive: true, force: true });
  };
  return { port: gateway.port, key: (JSON.parse(created) as { key: string }).key, pid: gateway.child.pid!, stop };
}

const upstream = await startUpstream(upstreamScript);
const upstreamUrl = `http://127.0.0.1:${upstream.port}/v1`;
const bare = await startBareProxy(upstreamUrl, providerKey);
const gateways = await Promise.all(builds.map((root) => serve(root, upstreamUrl)));
const spread = { keepSamples: true, startSpreadMs: latencyStartSpreadMs };
const plain = (port: number, headers: Record<string, string>): LoadJob => ({
  host: '127.0.0.1',
  port,
  path: '/v1/chat/completions',
  headers,
  body: chatBody('latency', stream),
  connections,
  durationMs,
  ...spread,
});
const targets: { name: string; job: LoadJob }[] = [
  { name: 'direct', job: plain(upstream.port, { authorization: `Bearer ${providerKey}` }) },
  { name: 'bare proxy', job: plain(bare.port, {}) },
  ...gateways.map((gateway, index) => ({
    name: path.relative(process.cwd(), builds[index]!) || '.',
    job: { ...switchyardChatJob(gateway.port, gateway.key, 'latency', stream, connections, durationMs), ...spread },
  })),
];
if (burst) {
  for (const target of [...targets]) {
    targets.push({ name: `${target.name}, burst`, job: { ...target.job, startSpreadMs: 0 } });
  }
}
const worker = new LoadWorker();
if (os.availableParallelism() >= 2) {
  for (const pid of [bare.child.pid!, ...gateways.map((gateway) => gateway.pid)]) pinToCpus(pid, '1');
  for (const pid of [upstream.child.pid!, worker.pid]) pinToCpus(pid, '0');
}
for (const target of targets) await worker.run({ ...target.job, durationMs: 2_000 }); // warm-up
const samples = new Map<string, number[]>(targets.map((target) => [target.name, []]));
const firstBytes = new Map<string, number[]>(targets.map((target) => [target.name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const target of targets) {
    const result = await worker.run(target.job);
    samples.get(target.name)!.push(...(result.totalSamples ?? []));
    firstBytes.get(target.name)!.push(...(result.firstByteSamples ?? []));
    if (result.errors > 0) process.stderr.write(`${target.name}: ${result.errors} errors; ${result.firstError}\n`);
  }
}
const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(2)}`;
// Streams also print the time to the first chunk (`stream, first`), the whole answer's time otherwise.
const measures = stream ? [['', samples] as const, [', first', firstBytes] as const] : [['', samples] as const];
for (const [suffix, measured] of measures) {
  for (const target of targets) {
    const summary = summarize(measured.get(target.name)!);
    const direct = summarize(measured.get(target.name.endsWith(', burst') ? 'direct, burst' : 'direct')!);
    const added = (quantile: 'p50' | 'p90' | 'p99') =>
      `${quantile} ${summary[quantile].toFixed(2)} ms (${signed(summary[quantile] - direct[quantile])})`;
    const label = `${mode}${suffix}`;
    process.stdout.write(`${label} ${target.name.padEnd(28)} ${added('p50')}, ${added('p90')}, ${added('p99')}\n`);
  }
}
await worker.close();
await Promise.all([...gateways.map((gateway) => gateway.stop()), bare.stop(), upstream.stop()]);
