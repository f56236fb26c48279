// A CPU profile of `switchyard serve` under load, for finding what to make cheaper:
//
//   node --import tsx bench/profile.ts [stream|whole] [connections] [seconds] [latency|throughput] [--no-profile]
//     [--root=<build root>] [-- <node flags for the gateway>]
//
// Compiles nothing: run `npm run build` (or `npm run bench` once) first. Writes a .cpuprofile into
// bench/results/profiles/ (open it in Chrome DevTools or VS Code) and prints the gateway's CPU time per request.
// `--no-profile` only measures (the profiler itself costs CPU): a quick before/after of one change. Node flags after
// `--` go to the gateway (e.g. `-- --trace-gc --trace-gc-verbose`), and what it prints is passed on to stderr.
// `--root` runs another build (a directory with bin/switchyard.js and a compiled dist/, as bench/latency.ts takes).

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuSeconds, LoadWorker, repoRoot, runSwitchyard, startUpstream } from './processes.js';
import { switchyardChatJob } from './workloads.js';

const flagsAt = process.argv.indexOf('--');
const gatewayFlags = flagsAt < 0 ? [] : process.argv.slice(flagsAt + 1);
const ownArguments = flagsAt < 0 ? process.argv.slice(2) : process.argv.slice(2, flagsAt);
const profiling = !ownArguments.includes('--no-profile');
const rootFlag = ownArguments.find((argument) => argument.startsWith('--root='));
const buildRoot = rootFlag ? path.resolve(rootFlag.slice('--root='.length)) : repoRoot;
const [mode, connectionsArgument, secondsArgument, modelArgument] = ownArguments.filter(
  (argument) => !argument.startsWith('--'),
);
const stream = mode !== 'whole';
const connections = Number(connectionsArgument ?? 200);
const durationMs = Number(secondsArgument ?? 10) * 1000;
const model = modelArgument === 'latency' ? 'latency' : 'throughput';
const profileDir = path.join(repoRoot, 'bench/results/profiles');
mkdirSync(profileDir, { recursive: true });

const upstream = await startUpstream();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-profile-'));
const environment = {
  root: buildRoot,
  dataDir,
  env: { SWITCHYARD_SECRET_STORE: 'file', SWITCHYARD_LOG_LEVEL: 'warn', KEY: 'k' },
};
const baseUrl = `http://127.0.0.1:${upstream.port}/v1`;
runSwitchyard(
  ['providers', 'add', 'fake', '--kind', 'openai', '--base-url', baseUrl, '--api-key-env', 'KEY'],
  environment,
);
const apiKey = (
  JSON.parse(runSwitchyard(['keys', 'create', '--name', 'profile', '--json'], environment)) as { key: string }
).key;
const gateway = spawn(
  process.execPath,
  [
    ...(profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ...gatewayFlags,
    'bin/switchyard.js',
    'serve',
    '--no-ui',
    '--port',
    '0',
    '--data-dir',
    dataDir,
  ],
  { cwd: buildRoot, env: { ...process.env, ...environment.env }, stdio: ['ignore', 'pipe', 'inherit'] },
);
const port = await new Promise<number>((resolve) =>
  gateway.stdout.on('data', (data: Buffer) => {
    if (gatewayFlags.length > 0) process.stderr.write(data);
    const match = /:(\d+)\/api\/v1/.exec(data.toString());
    if (match) resolve(Number(match[1]));
  }),
);
const worker = new LoadWorker();
const job = (ms: number) => switchyardChatJob(port, apiKey, model, stream, connections, ms);
await worker.run(job(3_000)); // warm-up: the optimising compiler has done its work after this
const cpuBefore = cpuSeconds(gateway.pid!);
const result = await worker.run(job(durationMs));
const cpu = cpuSeconds(gateway.pid!) - cpuBefore;
process.stdout.write(
  `${model}, ${stream ? 'streamed' : 'whole'} @${connections}: ${Math.round(result.requestsPerSecond)} req/s, ` +
    `${((cpu * 1000) / result.responses).toFixed(3)} ms of gateway CPU per request, ${result.errors} errors\n`,
);
await worker.close();
gateway.kill('SIGTERM');
await new Promise((resolve) => gateway.once('exit', resolve));
await upstream.stop();
rmSync(dataDir, { recursive: true, force: true });
if (profiling) process.stdout.write(`profile written to ${profileDir}\n`);
