// The benchmark's processes: the fake upstream, the real `switchyard serve` (compiled, as installed), Portkey's
// gateway, and the load generator. Each one runs in its own process so that none steals the others' event loop.

import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../test/support/wait-for.js';
import type { LoadJob, LoadResult } from './load-generator.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = ['--import', 'tsx'];

export interface Running {
  child: ChildProcess;
  port: number;
  /** Log output kept for error messages. */
  output(): string;
  stop(): Promise<void>;
}

function collect(child: ChildProcess): () => string {
  let text = '';
  const keep = (data: Buffer) => {
    text = (text + data.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => text;
}

function waitForLine(child: ChildProcess, pattern: RegExp, what: string, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 60 s:\n${output()}`)), 60_000);
    child.stdout?.on('data', (data: Buffer) => {
      seen += data.toString();
      const match = pattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before it was ready:\n${output()}`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The fake upstream (bench/fake-upstream.ts, or another script that prints `listening <port>`). */
export async function startUpstream(script = path.join(repoRoot, 'bench/fake-upstream.ts')): Promise<Running> {
  const child = spawn(process.execPath, [...tsx, script], { cwd: repoRoot });
  const output = collect(child);
  const port = Number(await waitForLine(child, /listening (\d+)/, 'the fake upstream', output));
  return { child, port, output, stop: () => stopChild(child) };
}

export interface GatewayEnvironment {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** The build to run: a tree with bin/switchyard.js and a compiled dist/ (default: this one). */
  root?: string;
}

const cliEntry = (environment: GatewayEnvironment) => path.join(environment.root ?? repoRoot, 'bin/switchyard.js');

/** Runs one `switchyard` command to completion; returns its standard output. */
export function runSwitchyard(args: string[], environment: GatewayEnvironment): string {
  const result = spawnSync(process.execPath, [cliEntry(environment), ...args, '--data-dir', environment.dataDir], {
    cwd: environment.root ?? repoRoot,
    env: { ...process.env, ...environment.env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`switchyard ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

/**
 * Adds the provider `fake` at `upstreamUrl` (its key from BENCH_PROVIDER_KEY in the environment) and a gateway key,
 * as a team would with the CLI; returns the key.
 */
export function setUpGateway(environment: GatewayEnvironment, upstreamUrl: string): string {
  runSwitchyard(
    ['providers', 'add', 'fake', '--kind', 'openai', '--base-url', upstreamUrl, '--api-key-env', 'BENCH_PROVIDER_KEY'],
    environment,
  );
  const created = runSwitchyard(['keys', 'create', '--name', 'bench', '--json'], environment);
  return (JSON.parse(created) as { key: string }).key;
}

export async function startGateway(environment: GatewayEnvironment, extraArgs: string[] = []): Promise<Running> {
  const child = spawn(
    process.execPath,
    [cliEntry(environment), 'serve', '--port', '0', '--data-dir', environment.dataDir, ...extraArgs],
    { cwd: environment.root ?? repoRoot, env: { ...process.env, ...environment.env } },
  );
  const output = collect(child);
  const url = await waitForLine(child, /listening at (http:\/\/\S+)/, 'switchyard serve', output);
  return { child, port: Number(new URL(url).port), output, stop: () => stopChild(child) };
}

export const portkeyEntry = path.join(repoRoot, 'node_modules/@portkey-ai/gateway/build/start-server.js');

/** Portkey's Node server, headless (no UI), on a free port. It prints a spinner, not a port: poll until it answers. */
export async function startPortkey(): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [portkeyEntry, `--port=${port}`, '--headless'], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const output = collect(child);
  const answers = async () => {
    if (child.exitCode !== null) throw new Error(`Portkey exited with ${child.exitCode}`);
    return fetch(`http://127.0.0.1:${port}/`).then(
      (response) => response.ok,
      () => false,
    );
  };
  await waitFor(answers, { what: 'Portkey to answer', timeoutMs: 60_000, everyMs: 200 }).catch((error: Error) => {
    throw new Error(`${error.message}:\n${output()}`);
  });
  return { child, port, output, stop: () => stopChild(child) };
}

/** The process and its descendants (a `--workers` primary and its workers), by scanning /proc (Linux). */
export function processTree(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [pid];
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const tree = [pid];
  for (let index = 0; index < tree.length; index += 1) tree.push(...(children.get(tree[index]!) ?? []));
  return tree;
}

function rssOfOne(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    if (match) return Number(match[1]) / 1024;
  } catch {
    // not Linux, or the process ended
  }
  const result = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  return Number(result.stdout.trim()) / 1024 || 0;
}

/** Resident set size of a process and its descendants, in MB (Linux /proc; `ps` elsewhere). */
export function rssMb(pid: number): number {
  return processTree(pid).reduce((sum, member) => sum + rssOfOne(member), 0);
}

/** CPU time (user + system) a process and its descendants have used so far, in seconds (Linux; NaN elsewhere). */
export function cpuSeconds(pid: number): number {
  let total = 0;
  for (const member of processTree(pid)) {
    try {
      const fields = readFileSync(`/proc/${member}/stat`, 'utf8').split(') ')[1]!.split(' ');
      // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after the command name; in clock ticks.
      total += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      if (member === pid) return Number.NaN;
    }
  }
  return total;
}

/** CPU seconds the whole machine spent busy (all cores), from /proc/stat; NaN where there is none. */
function machineBusySeconds(): number {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * How busy the machine was during a measurement, and how much of that was other work (tests of other people,
 * anything not started by the benchmark): figures measured while other processes used a core are noisy.
 */
export class CpuMeter {
  private readonly startedAt = performance.now();
  private readonly busyAtStart = machineBusySeconds();
  private readonly oursAtStart: number;

  constructor(private readonly ours: () => number[]) {
    this.oursAtStart = this.oursSeconds();
  }

  /** Average cores in use since the start: by everything, and by processes that are not the benchmark's. */
  read(): { busyCores: number; foreignCores: number } {
    const elapsed = (performance.now() - this.startedAt) / 1000;
    const busy = (machineBusySeconds() - this.busyAtStart) / elapsed;
    const ours = (this.oursSeconds() - this.oursAtStart) / elapsed;
    return { busyCores: busy, foreignCores: Math.max(0, busy - ours) };
  }

  private oursSeconds(): number {
    const own = process.cpuUsage();
    return (own.user + own.system) / 1e6 + this.ours().reduce((sum, pid) => sum + (cpuSeconds(pid) || 0), 0);
  }
}

/**
 * Pins a process, its threads and its child processes to CPUs (`taskset`, util-linux). False where that is not
 * possible (not Linux, no taskset), in which case nothing changed.
 */
export function pinToCpus(pid: number, cpus: string, withChildren = true): boolean {
  let pinned = true;
  for (const member of withChildren ? processTree(pid) : [pid]) {
    const result = spawnSync('taskset', ['-a', '-p', '-c', cpus, String(member)], { encoding: 'utf8' });
    if (result.status !== 0) pinned = false;
  }
  return pinned;
}

/** The load generator, in its own process; runs one job at a time. */
export class LoadWorker {
  private readonly child = fork(path.join(repoRoot, 'bench/load-worker.ts'), [], {
    cwd: repoRoot,
    execArgv: tsx,
  });

  get pid(): number {
    return this.child.pid!;
  }

  run(job: LoadJob): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the load generator exited with ${code}`));
      this.child.once('exit', onExit);
      this.child.once('message', (result) => {
        this.child.off('exit', onExit);
        resolve(result as LoadResult);
      });
      this.child.send(job);
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.disconnect();
    await exited;
  }
}

/** The bare Node proxy (bench/bare-proxy.ts) in front of `upstreamBase`, sending `providerKey`. */
export async function startBareProxy(upstreamBase: string, providerKey: string): Promise<Running> {
  const child = spawn(
    process.execPath,
    [...tsx, path.join(repoRoot, 'bench/bare-proxy.ts'), upstreamBase, providerKey],
    {
      cwd: repoRoot,
    },
  );
  const output = collect(child);
  const port = Number(await waitForLine(child, /listening (\d+)/, 'the bare proxy', output));
  return { child, port, output, stop: () => stopChild(child) };
}
