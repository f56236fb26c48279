// `npm run bench`: the gateway's added latency, throughput, memory and disconnect handling, measured against a
// fake upstream on loopback and side by side with Portkey's gateway on the same workload. Every party runs in its
// own process: the fake upstream, `switchyard serve` (compiled, with a temporary data dir, real auth, SQLite and
// usage log), Portkey, and the load generator.
//
//   npm run bench [-- --quick] [-- --workers N] [-- --no-portkey] [-- --no-build] [-- --only postgres|features]
//                 [-- --baseline DIR]
//
// A bare Node proxy (bench/bare-proxy.ts: node:http in, undici out, bytes piped, nothing else) runs beside them as
// the floor: what any Node gateway pays for the hop alone. Switchyard's own cost is its difference to that row.
//
// The gateway runs twice: as `switchyard serve` (one process; every figure) and as `switchyard serve --workers N`
// (N = the number of cores unless given; throughput only), both on the same data dir.
//
// A team server (decision 017) gets one row: one `switchyard serve --database-url …` instance on a throwaway
// PostgreSQL cluster, then two with the connections alternating between them (bench/team-server.ts); skipped with a
// note where PostgreSQL is not installed. `--only postgres` measures that row alone.
//
// The team features (model groups aside: they cost nothing to a request that names no group) get rows of their
// own (bench/feature-row.ts): the response cache (all hits, all misses), Prometheus metrics and OpenTelemetry
// traces, each on beside a gateway with all of them off; with `--baseline DIR` (a checkout of an earlier commit,
// built), that features-off gateway is measured against the earlier build too. `--only features` measures them
// alone.
//
// Results go to bench/results/latest.json and latest.md (latest-postgres.* or latest-features.* for `--only`);
// the markdown table is printed at the end.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { measureDisconnect, probeUpstream } from './disconnect-probe.js';
import { benchContenders, benchFigures, type LatencyByMode } from './figures.js';
import { summarize, type LoadJob } from './load-generator.js';
import {
  CpuMeter,
  LoadWorker,
  pinToCpus,
  portkeyEntry,
  rssMb,
  runSwitchyard,
  startBareProxy,
  startGateway,
  startPortkey,
  startUpstream,
  type Running,
} from './processes.js';
import type { BenchResults } from './report.js';
import { build, machine, writeResults } from './results-file.js';
import { createRunner, log, sleep, type Measured } from './runner.js';
import { median, slope } from './stats.js';
import { benchTargets, type Target, type TargetName } from './targets.js';
import { measureFeatures } from './feature-row.js';
import { measureTeamServer } from './team-row.js';
import { latencyStartSpreadMs, profiles } from './workloads.js';

interface Options {
  quick: boolean;
  workers: number;
  portkey: boolean;
  build: boolean;
  pin: boolean;
  /** Measure only this row (`postgres`: one vs two instances on PostgreSQL; `features`: the team features). */
  only: 'postgres' | 'features' | null;
  /** An earlier build (a tree with bin/ and dist/) the features-off gateway is compared with. */
  baseline: string | null;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    quick: false,
    workers: os.availableParallelism(),
    portkey: true,
    build: true,
    pin: os.availableParallelism() >= 2,
    only: null,
    baseline: null,
  };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--quick') options.quick = true;
    else if (argument === '--no-portkey') options.portkey = false;
    else if (argument === '--no-build') options.build = false;
    else if (argument === '--no-pin') options.pin = false;
    else if (argument === '--workers') options.workers = Number(argv[++index]);
    else if (argument === '--baseline') options.baseline = path.resolve(argv[++index] ?? '');
    else if (argument === '--only') {
      const only = argv[++index];
      if (only !== 'postgres' && only !== 'features') throw new Error('--only takes postgres or features');
      options.only = only;
    } else {
      throw new Error(
        `unknown argument ${argument}; use --quick, --workers N, --no-portkey, --no-build, --no-pin, ` +
          '--only postgres|features, --baseline DIR',
      );
    }
  }
  if (!Number.isInteger(options.workers) || options.workers < 1) throw new Error('--workers takes a whole number');
  return options;
}

const options = parseOptions(process.argv.slice(2));
const seconds = (full: number, quick: number) => (options.quick ? quick : full) * 1000;
/** How long after start-up the idle RSS is read: after V8's memory reducer has run (see the idle measurement). */
const idleSettleMs = 30_000;
const teamSettings = { pin: options.pin, seconds };
const featureSettings = { pin: options.pin, quick: options.quick, seconds, baseline: options.baseline };

/** `--only postgres` or `features`: the fake upstream, the load generator and that row, nothing else. */
async function mainOnly(only: 'postgres' | 'features'): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  if (options.build) build();
  const worker = new LoadWorker();
  const upstream = await startUpstream();
  try {
    const notes: string[] = [];
    if (options.pin) {
      const pinned =
        [upstream.child.pid!, worker.pid].every((pid) => pinToCpus(pid, '0')) && pinToCpus(process.pid, '0', false);
      if (!pinned) notes.push('Could not pin processes to CPUs (taskset): all of them shared every core.');
    }
    const runner = createRunner(worker, () => [upstream.child.pid!, worker.pid], notes);
    const runMeter = new CpuMeter(() => [upstream.child.pid!, worker.pid]);
    const upstreamUrl = `http://127.0.0.1:${upstream.port}/v1`;
    const providerKey = 'sk-bench-provider-key';
    const row =
      only === 'postgres'
        ? await measureTeamServer(runner, upstreamUrl, providerKey, teamSettings)
        : await measureFeatures(runner, upstreamUrl, providerKey, featureSettings);
    await writeResults(
      {
        date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
        quick: options.quick,
        workers: 1,
        machine: { ...machine(loadBefore), foreignCores: runMeter.read().foreignCores },
        workload:
          'Workload: OpenAI-style chat requests (a system and a user message) to a fake upstream in its own ' +
          `process, zero-latency model (the whole answer at once); closed-loop load generator with keep-alive ` +
          'connections, in its own process, with the fake upstream on CPU 0.',
        figures: row.figures,
        details: { [only]: row.details, foreignLoad: runner.foreignLoad },
        notes: [...notes, ...row.notes],
      },
      options.quick ? `-${only}-quick` : `-${only}`,
    );
  } finally {
    await worker.close();
    await upstream.stop();
  }
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  if (options.build) build();
  const processes: Running[] = [];
  const worker = new LoadWorker();
  const probe = probeUpstream();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-bench-'));
  // The --workers gateway gets its own data: two independent gateways on one file would empty each other's
  // caches with every usage batch, which is not what either would see in use.
  const multiDataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-bench-workers-'));
  const details: Record<string, unknown> = {};
  const notes: string[] = [];
  try {
    const upstream = await startUpstream();
    processes.push(upstream);
    const probeUrl = await probe.start();
    const upstreamUrl = `http://127.0.0.1:${upstream.port}/v1`;
    const providerKey = 'sk-bench-provider-key';
    const env = { SWITCHYARD_SECRET_STORE: 'file', SWITCHYARD_LOG_LEVEL: 'warn', BENCH_PROVIDER_KEY: providerKey };
    const environment = { dataDir, env };
    const multiEnvironment = { dataDir: multiDataDir, env };
    for (const each of [environment, multiEnvironment]) {
      for (const [id, url] of [
        ['fake', upstreamUrl],
        ['probe', probeUrl],
      ] as const) {
        runSwitchyard(
          ['providers', 'add', id, '--kind', 'openai', '--base-url', url, '--api-key-env', 'BENCH_PROVIDER_KEY'],
          each,
        );
      }
    }
    const createKey = (each: typeof environment) =>
      (JSON.parse(runSwitchyard(['keys', 'create', '--name', 'bench', '--json'], each)) as { key: string }).key;
    const apiKey = createKey(environment);
    const multiApiKey = createKey(multiEnvironment);
    const bare = await startBareProxy(upstreamUrl, providerKey);
    processes.push(bare);
    const gateway = await startGateway(environment);
    processes.push(gateway);
    const gatewayPid = gateway.child.pid!;
    const multi =
      options.workers > 1 ? await startGateway(multiEnvironment, ['--workers', String(options.workers)]) : null;
    if (multi) processes.push(multi);
    let portkey: Running | null = null;
    if (options.portkey) {
      if (!existsSync(portkeyEntry)) {
        notes.push('Portkey is not installed (npm install): its column is empty.');
      } else {
        portkey = await startPortkey();
        processes.push(portkey);
      }
    }
    const gatewayRequests = { count: 0 };
    const multiRequests = { count: 0 };
    // The process under test gets a core of its own; the load generator and the fake upstream share the other.
    // A single Node process uses one core anyway, and the peer gets the same treatment. `--workers` may use all.
    let pinned = false;
    if (options.pin) {
      pinned = [gateway, bare, portkey].every((running) => !running || pinToCpus(running.child.pid!, '1'));
      if (multi) pinned &&= pinToCpus(multi.child.pid!, `0-${os.availableParallelism() - 1}`);
      pinned &&= [upstream.child.pid!, worker.pid].every((pid) => pinToCpus(pid, '0'));
      pinned &&= pinToCpus(process.pid, '0', false); // this script (the disconnect probe), not its children
      if (!pinned) notes.push('Could not pin processes to CPUs (taskset): all of them shared every core.');
    }

    const targets = benchTargets({
      upstream: { port: upstream.port, url: upstreamUrl, providerKey },
      bare: { port: bare.port },
      switchyard: { port: gateway.port, apiKey },
      workers: { port: multi?.port ?? 0, apiKey: multiApiKey },
      portkey: { port: portkey?.port ?? 0 },
    });
    const ours = () =>
      [upstream, bare, gateway, multi, portkey]
        .flatMap((running) => (running ? [running.child.pid!] : []))
        .concat(worker.pid);
    const runMeter = new CpuMeter(ours);
    const runner = createRunner(worker, ours, notes, (name, responses) => {
      if (name === 'switchyard') gatewayRequests.count += responses;
      if (name === 'workers') multiRequests.count += responses;
    });
    const { foreignLoad } = runner;
    const run = (target: Target, job: LoadJob, attempts = 3, cpuOf?: number) =>
      runner.run(target.name, job, attempts, cpuOf);
    const available = (name: TargetName) => (name === 'portkey' ? portkey !== null : name !== 'workers' || multi);
    // Latency figures compare one process with the upstream and Portkey; --workers is measured for throughput.
    const active = (['direct', 'bare', 'switchyard', 'portkey'] as const)
      .filter(available)
      .map((name) => targets[name]);

    // Idle, before any request: just after start-up, and once idle. Start-up grows V8's young generation to its
    // full 32 MB (module loading keeps most of what it allocates), and V8's memory reducer gives it back only after
    // some seconds without allocation (about 17 s after `switchyard serve` starts, on the benchmark machine).
    await sleep(2_000);
    const startupRss = rssMb(gatewayPid);
    log(`RSS after start-up ${startupRss.toFixed(1)} MB; waiting ${idleSettleMs / 1000} s for the idle figure…`);
    await sleep(idleSettleMs - 2_000);
    const idleRss = rssMb(gatewayPid);
    const portkeyIdleRss = portkey ? rssMb(portkey.child.pid!) : null;
    log(`idle RSS ${idleRss.toFixed(1)} MB`);

    log('warming up…');
    for (const target of (Object.values(targets) as Target[]).filter((each) => available(each.name))) {
      for (const stream of [false, true]) {
        await run(target, target.job('throughput', stream, 50, seconds(2, 1)), 1);
      }
    }

    // Added latency: the `latency` workload at 50 connections, targets interleaved round by round.
    const latency: LatencyByMode = {};
    for (const stream of [false, true]) {
      const mode = stream ? 'stream' : 'whole';
      log(`added latency, ${mode}, 50 connections…`);
      const samples = new Map<string, { total: number[]; firstByte: number[]; rps: number[] }>();
      for (let round = 0; round < (options.quick ? 1 : 3); round += 1) {
        for (const target of active) {
          const job = {
            ...target.job('latency', stream, 50, seconds(4, 1.5)),
            keepSamples: true,
            startSpreadMs: latencyStartSpreadMs,
          };
          const result = await run(target, job);
          const collected = samples.get(target.name) ?? { total: [], firstByte: [], rps: [] };
          collected.total.push(...(result.totalSamples ?? []));
          collected.firstByte.push(...(result.firstByteSamples ?? []));
          collected.rps.push(result.requestsPerSecond);
          samples.set(target.name, collected);
        }
      }
      latency[mode] = Object.fromEntries(
        [...samples].map(([name, collected]) => [
          name,
          { total: summarize(collected.total), firstByte: summarize(collected.firstByte), rps: median(collected.rps) },
        ]),
      );
    }
    details.latency = latency;

    // Throughput: the `throughput` workload at 50 and 200 connections.
    const throughput: Record<string, Record<string, Measured>> = {};
    let peakRss = idleRss;
    let portkeyPeakRss = portkeyIdleRss ?? 0;
    for (const stream of [true, false]) {
      for (const connections of [50, 200]) {
        const cell = `${stream ? 'stream' : 'whole'}@${connections}`;
        throughput[cell] = {};
        const names: TargetName[] = ['direct', 'bare', 'switchyard', 'workers', 'portkey'];
        for (const name of names.filter(available)) {
          log(`throughput, ${cell}, ${name}…`);
          const target = targets[name];
          const pids: Record<TargetName, number> = {
            direct: upstream.child.pid!,
            bare: bare.child.pid!,
            switchyard: gatewayPid,
            workers: multi?.child.pid ?? 0,
            portkey: portkey?.child.pid ?? 0,
          };
          const pid = pids[name];
          const sampler = setInterval(() => {
            if (name === 'switchyard') peakRss = Math.max(peakRss, rssMb(gatewayPid));
            if (name === 'portkey') portkeyPeakRss = Math.max(portkeyPeakRss, rssMb(pid));
          }, 250);
          const duration = name === 'direct' ? seconds(4, 1) : seconds(8, 2);
          throughput[cell][name] = await run(target, target.job('throughput', stream, connections, duration), 3, pid);
          clearInterval(sampler);
        }
      }
    }
    details.throughput = throughput;

    // A caller that disconnects mid-stream: how long until the upstream request is closed.
    log('disconnect → upstream abort…');
    const gatewayUrl = `http://127.0.0.1:${gateway.port}/api/v1`;
    const disconnects: number[] = [];
    for (let trial = 0; trial < (options.quick ? 5 : 20); trial += 1) {
      disconnects.push(await measureDisconnect(probe, gatewayUrl, apiKey));
      gatewayRequests.count += 1;
    }
    details.disconnectMs = disconnects;

    // Soak: steady streaming load; RSS sampled every second.
    log(`soak, ${seconds(60, 10) / 1000} s…`);
    const soakSamples: { x: number; y: number }[] = [];
    const soakStart = performance.now();
    const soakSampler = setInterval(() => {
      soakSamples.push({ x: (performance.now() - soakStart) / 60_000, y: rssMb(gatewayPid) });
    }, 1_000);
    const soak = await run(targets.switchyard, targets.switchyard.job('latency', true, 50, seconds(60, 10)), 1);
    clearInterval(soakSampler);
    // RSS is a saw-tooth (the heap grows until a collection): a leak shows as a rising low-water mark.
    const settled = soakSamples.filter((sample) => sample.x * 60 >= 5);
    const half = Math.floor(settled.length / 2);
    const lowWater = (samples: typeof settled) => Math.min(...samples.map((sample) => sample.y));
    const soakFloor = lowWater(settled.slice(0, half));
    const soakGrowth = lowWater(settled.slice(half)) - soakFloor;
    const soakSlope = slope(settled);
    details.soak = {
      slopeMbPerMinute: soakSlope,
      lowWaterMb: soakFloor,
      requestsPerSecond: soak.requestsPerSecond,
      errors: soak.errors,
      rssMb: soakSamples.map((sample) => Math.round(sample.y * 10) / 10),
    };
    peakRss = Math.max(peakRss, ...soakSamples.map((sample) => sample.y));

    await sleep(3_000);
    const idleAfterRss = rssMb(gatewayPid);
    details.idleRssAfterLoadMb = idleAfterRss;

    const multiIdleRss = multi ? rssMb(multi.child.pid!) : null;
    // Every request through the gateway left exactly one usage row (the log is in the measured path).
    await gateway.stop();
    await multi?.stop();
    const countRows = (directory: string) => {
      const db = new Database(path.join(directory, 'switchyard.db'), { readonly: true });
      const count = db.prepare('SELECT count(*) FROM usage_log').pluck().get() as number;
      db.close();
      return count;
    };
    const rows = countRows(dataDir) + (multi ? countRows(multiDataDir) : 0);
    gatewayRequests.count += multiRequests.count;
    details.usageRows = { rows, requests: gatewayRequests.count };

    const team = await measureTeamServer(runner, upstreamUrl, providerKey, teamSettings);
    details.postgres = team.details;
    const features = await measureFeatures(runner, upstreamUrl, providerKey, featureSettings);
    details.features = features.details;

    const measurements = {
      latency,
      throughput,
      contenders: (['direct', 'bare', 'switchyard', 'workers', 'portkey'] as const).filter(available),
      workers: multi ? options.workers : null,
      rss: {
        startup: startupRss,
        idle: idleRss,
        idleAfterSeconds: idleSettleMs / 1000,
        peak: peakRss,
        portkeyIdle: portkeyIdleRss,
        portkeyPeak: portkey ? portkeyPeakRss : null,
      },
      soak: { seconds: seconds(60, 10) / 1000, floorMb: soakFloor, growthMb: soakGrowth },
      disconnectsMs: disconnects,
      usage: { rows, requests: gatewayRequests.count },
    };
    const figures = [...benchFigures(measurements), ...team.figures, ...features.figures];
    const contenders = benchContenders(measurements);
    details.foreignLoad = foreignLoad;
    const noisy = foreignLoad.filter((entry) => entry.cores > 0.2);
    if (noisy.length > 0) {
      notes.push(
        `Other processes on the machine used up to ${Math.max(...noisy.map((entry) => entry.cores)).toFixed(2)} ` +
          `cores during ${noisy.length} of ${foreignLoad.length} measurements: those figures are noisy ` +
          '(details.foreignLoad in latest.json).',
      );
    }
    const { p50: disconnectP50 } = summarize(disconnects);
    const slowest = [...disconnects].sort((a, b) => b - a).slice(0, 3);
    notes.push(
      `Disconnect → upstream closed: median ${disconnectP50.toFixed(1)} ms over ${disconnects.length} trials; ` +
        `the slowest ${slowest.map((ms) => ms.toFixed(1)).join(', ')} ms.`,
    );
    notes.push(`RSS at idle after the load: ${idleAfterRss.toFixed(1)} MB.`);
    notes.push(...team.notes, ...features.notes);
    if (multiIdleRss !== null) {
      notes.push(
        `RSS of \`--workers ${options.workers}\` (primary and workers) after the run: ${multiIdleRss.toFixed(1)} MB.`,
      );
    }

    const results: BenchResults = {
      date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
      quick: options.quick,
      workers: options.workers,
      machine: { ...machine(loadBefore), foreignCores: runMeter.read().foreignCores },
      workload:
        `Workload: OpenAI-style chat requests (a system and a user message). Fake upstream in its own process; ` +
        `latency figures use a model that sends its first token after ${profiles.latency.firstTokenMs} ms and ` +
        `${profiles.latency.contentChunks} chunks ${profiles.latency.chunkIntervalMs} ms apart (non-streaming: ` +
        `the whole answer after the same time), measured against calling the upstream directly in the same run, ` +
        `the 50 connections opened evenly over ${latencyStartSpreadMs} ms (one answer's time) as independent ` +
        `clients would; ` +
        `throughput figures use a zero-latency model (${profiles.throughput.contentChunks} chunks at once, or the ` +
        `whole answer at once). Closed-loop ` +
        `load generator with keep-alive connections, in its own process. The bare Node proxy (bench/bare-proxy.ts: ` +
        `node:http in, undici out, bytes piped; no auth, validation or usage log) is the floor for any Node ` +
        `gateway. Portkey: @portkey-ai/gateway (Node) with ` +
        `x-portkey-custom-host pointing at the same upstream.` +
        (pinned
          ? ' CPUs: the gateway under test (and the bare proxy, and Portkey) on CPU 1; the load generator and the fake upstream on ' +
            'CPU 0 (on a machine shared with the client and the upstream, they would otherwise take turns on ' +
            "the gateway's core); `--workers` on every CPU."
          : ''),
      figures,
      contenders,
      details,
      notes,
    };
    await writeResults(results, options.quick ? '-quick' : '');
  } finally {
    await worker.close();
    await probe.close();
    for (const running of processes.reverse()) await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(multiDataDir, { recursive: true, force: true });
  }
}

await (options.only ? mainOnly(options.only) : main());
