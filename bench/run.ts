// `npm run bench`: the gateway's added latency, throughput, memory and disconnect handling, measured against a
// fake upstream on loopback and side by side with Portkey's gateway on the same workload. Every party runs in its
// own process: the fake upstream, `switchyard serve` (compiled, with a temporary data dir, real auth, SQLite and
// usage log), Portkey, and the load generator.
//
//   npm run bench [-- --quick] [-- --workers N] [-- --no-portkey] [-- --no-build] [-- --only postgres]
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
// Results go to bench/results/latest.json and latest.md (latest-postgres.* for `--only postgres`); the markdown
// table is printed at the end.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { measureDisconnect, probeUpstream } from './disconnect-probe.js';
import { summarize, type LoadJob, type LoadResult, type TimingSummary } from './load-generator.js';
import {
  cpuSeconds,
  CpuMeter,
  LoadWorker,
  pinToCpus,
  portkeyEntry,
  repoRoot,
  rssMb,
  runSwitchyard,
  startBareProxy,
  startGateway,
  startPortkey,
  startUpstream,
  type Running,
} from './processes.js';
import { judge, renderMarkdown, type BenchResults, type Contender, type Figure } from './report.js';
import { median, slope } from './stats.js';
import { startTeamServer } from './team-server.js';
import { chatBody, latencyStartSpreadMs, profiles, switchyardChatJob } from './workloads.js';

interface Options {
  quick: boolean;
  workers: number;
  portkey: boolean;
  build: boolean;
  pin: boolean;
  /** Measure only this row (`postgres`: one vs two instances on PostgreSQL). */
  only: 'postgres' | null;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    quick: false,
    workers: os.availableParallelism(),
    portkey: true,
    build: true,
    pin: os.availableParallelism() >= 2,
    only: null,
  };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--quick') options.quick = true;
    else if (argument === '--no-portkey') options.portkey = false;
    else if (argument === '--no-build') options.build = false;
    else if (argument === '--no-pin') options.pin = false;
    else if (argument === '--workers') options.workers = Number(argv[++index]);
    else if (argument === '--only') {
      if (argv[++index] !== 'postgres') throw new Error('--only takes postgres');
      options.only = 'postgres';
    } else {
      throw new Error(
        `unknown argument ${argument}; use --quick, --workers N, --no-portkey, --no-build, --no-pin, --only postgres`,
      );
    }
  }
  if (!Number.isInteger(options.workers) || options.workers < 1) throw new Error('--workers takes a whole number');
  return options;
}

const options = parseOptions(process.argv.slice(2));
const seconds = (full: number, quick: number) => (options.quick ? quick : full) * 1000;
const log = (text: string) => process.stderr.write(`bench: ${text}\n`);
/** How long after start-up the idle RSS is read: after V8's memory reducer has run (see the idle measurement). */
const idleSettleMs = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Compiles main/ to dist/ as `npm run build` does, so the gateway runs as installed (node, not tsx). */
function build(): void {
  log('compiling the gateway (tsc -p tsconfig.build.json)…');
  const result = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: repoRoot,
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) {
    if (!existsSync(path.join(repoRoot, 'dist/main/cli/main.js'))) throw new Error(`tsc failed:\n${result.stdout}`);
    log(`tsc reported errors (the output was still written; the run goes on):\n${result.stdout.slice(0, 2000)}`);
  }
}

/** Writes a results file as Prettier would, so that `npm run lint` stays clean after a run. */
async function writeFormatted(file: string, text: string): Promise<void> {
  const prettier = await import('prettier');
  const config = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(text, { ...config, filepath: file }));
}

function machine(loadBefore: number): BenchResults['machine'] {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    loadBefore,
    loadAfter: os.loadavg()[0]!,
  };
}

type TargetName = 'direct' | 'bare' | 'switchyard' | 'workers' | 'portkey';

type Measured = LoadResult & { cpuMsPerRequest?: number };

interface Runner {
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

function createRunner(
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

interface Row {
  figures: Figure[];
  notes: string[];
  details: unknown;
}

/**
 * One vs two `switchyard serve --database-url …` instances on a throwaway PostgreSQL: non-streamed throughput at 50
 * connections through one instance, then with the connections alternating between two (as a round-robin load
 * balancer would spread them), and the ratio. Both configurations get every CPU, as `--workers` does.
 */
async function measureTeamServer(runner: Runner, upstreamUrl: string, providerKey: string): Promise<Row> {
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
    if (options.pin && !team.pids().every((pid) => pinToCpus(pid, allCpus))) {
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

/** Writes the results (bench/results/latest<suffix>.{json,md}) and prints the markdown table. */
async function writeResults(results: BenchResults, suffix: string): Promise<void> {
  const markdown = renderMarkdown(results);
  const resultsDir = path.join(repoRoot, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  await writeFormatted(path.join(resultsDir, `latest${suffix}.json`), JSON.stringify(results));
  await writeFormatted(path.join(resultsDir, `latest${suffix}.md`), markdown);
  process.stdout.write(`\n${markdown}`);
  const missed = results.figures.filter((figure) => judge(figure).pass === false).length;
  log(`${missed} target(s) missed; results in bench/results/latest${suffix}.{json,md}`);
}

/** `--only postgres`: the fake upstream, the load generator and the PostgreSQL row, nothing else. */
async function mainPostgresOnly(): Promise<void> {
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
    const row = await measureTeamServer(runner, `http://127.0.0.1:${upstream.port}/v1`, 'sk-bench-provider-key');
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
        details: { postgres: row.details, foreignLoad: runner.foreignLoad },
        notes: [...notes, ...row.notes],
      },
      options.quick ? '-postgres-quick' : '-postgres',
    );
  } finally {
    await worker.close();
    await upstream.stop();
  }
}

interface Target {
  name: TargetName;
  job(model: string, stream: boolean, connections: number, durationMs: number): LoadJob;
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

    const switchyardJob =
      (port: number, key: string): Target['job'] =>
      (model, stream, connections, durationMs) =>
        switchyardChatJob(port, key, model, stream, connections, durationMs);
    const targets: Record<TargetName, Target> = {
      direct: {
        name: 'direct',
        job: (model, stream, connections, durationMs) => ({
          host: '127.0.0.1',
          port: upstream.port,
          path: '/v1/chat/completions',
          headers: { authorization: `Bearer ${providerKey}` },
          body: chatBody(model, stream),
          connections,
          durationMs,
        }),
      },
      bare: {
        name: 'bare',
        job: (model, stream, connections, durationMs) => ({
          host: '127.0.0.1',
          port: bare.port,
          path: '/v1/chat/completions',
          headers: {},
          body: chatBody(model, stream),
          connections,
          durationMs,
        }),
      },
      switchyard: { name: 'switchyard', job: switchyardJob(gateway.port, apiKey) },
      workers: { name: 'workers', job: switchyardJob(multi?.port ?? 0, multiApiKey) },
      portkey: {
        name: 'portkey',
        job: (model, stream, connections, durationMs) => ({
          host: '127.0.0.1',
          port: portkey?.port ?? 0,
          path: '/v1/chat/completions',
          headers: {
            authorization: `Bearer ${providerKey}`,
            'x-portkey-provider': 'openai',
            'x-portkey-custom-host': upstreamUrl,
          },
          body: chatBody(model, stream),
          connections,
          durationMs,
        }),
      },
    };
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
    const latency: Record<string, Record<string, { total: TimingSummary; firstByte: TimingSummary; rps: number }>> = {};
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
    const throughput: Record<string, Record<string, LoadResult & { cpuMsPerRequest?: number }>> = {};
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

    const team = await measureTeamServer(runner, upstreamUrl, providerKey);
    details.postgres = team.details;

    const added = (mode: string, field: 'total' | 'firstByte', quantile: 'p50' | 'p99') => {
      const through = latency[mode]?.switchyard?.[field][quantile];
      const direct = latency[mode]?.direct?.[field][quantile];
      return through === undefined || direct === undefined ? null : through - direct;
    };
    const addedPortkey = (mode: string, field: 'total' | 'firstByte', quantile: 'p50' | 'p99') => {
      const through = latency[mode]?.portkey?.[field][quantile];
      const direct = latency[mode]?.direct?.[field][quantile];
      return through === undefined || direct === undefined ? undefined : through - direct;
    };
    /** Added p50 over the bare proxy's own: what Switchyard's work costs beyond the hop. */
    const overFloor = (mode: string) => {
      const through = latency[mode]?.switchyard?.total.p50;
      const floor = latency[mode]?.bare?.total.p50;
      return through === undefined || floor === undefined ? null : through - floor;
    };
    const rps = (cell: string, name: string) => throughput[cell]?.[name]?.requestsPerSecond ?? null;
    const portkeyRps = (cell: string) => (portkey ? rps(cell, 'portkey') : undefined);
    const figures: Figure[] = [
      ...(['whole', 'stream'] as const).flatMap((mode) =>
        (mode === 'whole' ? (['total'] as const) : (['firstByte', 'total'] as const)).flatMap((field) =>
          (['p50', 'p99'] as const).map((quantile): Figure => ({
            id: `added-${mode}-${field}-${quantile}`,
            label: `Added latency ${quantile}, ${mode === 'whole' ? 'non-streaming' : field === 'firstByte' ? 'streaming, time to first token' : 'streaming, total'} (50 conns)`,
            unit: 'ms',
            switchyard: added(mode, field, quantile),
            portkey: addedPortkey(mode, field, quantile),
            comparison: 'max',
            target: quantile === 'p50' ? 1 : 5,
          })),
        ),
      ),
      ...(['whole', 'stream'] as const).map((mode): Figure => ({
        id: `added-over-bare-${mode}-p50`,
        label: `Added latency p50 beyond the bare Node proxy's, ${mode === 'whole' ? 'non-streaming' : 'streaming, total'} (50 conns)`,
        unit: 'ms',
        switchyard: overFloor(mode),
        comparison: 'max',
        target: 0.1,
      })),
      ...(['stream', 'whole'] as const).flatMap((mode) =>
        [50, 200].map((connections): Figure => {
          const floor = rps(`${mode}@${connections}`, 'bare');
          const ours = rps(`${mode}@${connections}`, 'switchyard');
          return {
            id: `rps-over-bare-${mode}-${connections}`,
            label: `${mode === 'stream' ? 'Streamed' : 'Non-streamed'} throughput as a share of the bare Node proxy's (${connections} conns, one process)`,
            unit: '×',
            switchyard: floor && ours !== null ? ours / floor : null,
            comparison: 'min',
            target: 0.7,
          };
        }),
      ),
      ...(['stream', 'whole'] as const).flatMap((mode) =>
        (multi ? (['switchyard', 'workers'] as const) : (['switchyard'] as const)).flatMap((name) =>
          [50, 200].map((connections): Figure => ({
            id: `rps-${mode}-${connections}${name === 'workers' ? '-workers' : ''}`,
            label:
              `${mode === 'stream' ? 'Streamed' : 'Non-streamed'} requests per second (${connections} conns` +
              `${name === 'workers' ? `, --workers ${options.workers}` : ', one process'})`,
            unit: 'req/s',
            switchyard: rps(`${mode}@${connections}`, name),
            portkey: portkeyRps(`${mode}@${connections}`),
            comparison: 'min',
            ...(mode === 'stream' ? { target: 3_000 } : {}),
            targetText: mode === 'stream' ? '≥ 3,000 and ≥ 10× Portkey' : '≥ 10× Portkey',
            portkeyMultiple: 10,
          })),
        ),
      ),
      {
        id: 'rss-startup',
        label: 'RSS 2 s after start (headless `switchyard serve`)',
        unit: 'MB',
        switchyard: startupRss,
        comparison: 'info',
      },
      {
        id: 'rss-idle',
        label: `RSS at idle (headless \`switchyard serve\`, idle ${idleSettleMs / 1000} s since its start)`,
        unit: 'MB',
        switchyard: idleRss,
        portkey: portkeyIdleRss ?? undefined,
        comparison: 'max',
        target: 80,
      },
      {
        id: 'rss-load',
        label: 'RSS under load (peak)',
        unit: 'MB',
        switchyard: peakRss,
        portkey: portkey ? portkeyPeakRss : undefined,
        comparison: 'info',
      },
      {
        id: 'soak-growth',
        label: `RSS low-water mark, second half of the ${seconds(60, 10) / 1000} s soak minus the first`,
        unit: 'MB',
        switchyard: soakGrowth,
        comparison: 'max',
        target: Math.round(soakFloor / 10),
        targetText: `flat (≤ 10 % of ${Math.round(soakFloor)} MB)`,
      },
      {
        id: 'disconnect',
        label: 'Caller disconnect → upstream request closed (max of trials)',
        unit: 'ms',
        switchyard: Math.max(...disconnects),
        comparison: 'max',
        target: 100,
      },
      {
        id: 'usage-rows',
        label: `Usage rows written for ${gatewayRequests.count.toLocaleString('en-US')} gateway requests`,
        unit: 'rows',
        switchyard: rows,
        comparison: 'min',
        target: gatewayRequests.count,
        targetText: 'one per request',
      },
      ...team.figures,
    ];
    // Every contender side by side: throughput, and the CPU its own process spent per request (at 200
    // connections, where each is saturated), and the latency it adds over calling the upstream directly.
    const contenderNames: Record<TargetName, string> = {
      direct: 'Upstream, called directly',
      bare: 'Bare Node proxy (node:http + undici, bytes piped)',
      switchyard: 'Switchyard (one process)',
      workers: `Switchyard (--workers ${options.workers})`,
      portkey: 'Portkey',
    };
    const contenders: Contender[] = (Object.keys(contenderNames) as TargetName[]).filter(available).map((name) => {
      const cpuUs = (mode: string) => {
        const ms = throughput[`${mode}@200`]?.[name]?.cpuMsPerRequest;
        return ms === undefined ? null : ms * 1000;
      };
      const addedP50 = (mode: string) => {
        const through = latency[mode]?.[name]?.total.p50;
        const direct = latency[mode]?.direct?.total.p50;
        return name === 'direct' || through === undefined || direct === undefined ? null : through - direct;
      };
      return {
        name: contenderNames[name],
        rps: Object.fromEntries(Object.keys(throughput).map((cell) => [cell, rps(cell, name)])),
        cpuUsPerRequest: { whole: cpuUs('whole'), stream: cpuUs('stream') },
        addedP50Ms: { whole: addedP50('whole'), stream: addedP50('stream') },
      };
    });
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
    notes.push(...team.notes);
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

await (options.only === 'postgres' ? mainPostgresOnly() : main());
