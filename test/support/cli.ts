// Runs the real `switchyard` command from source in a child process, as a user would run it.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeInTurn, type Closable } from './use-harness.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cliEntry = path.join(repoRoot, 'main/cli/main.ts');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Providers of the developer's machine (keys in the environment, a running Ollama) stay out of the tests. */
const isolatedProviders: NodeJS.ProcessEnv = {
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  GEMINI_API_KEY: '',
  OPENROUTER_API_KEY: '',
  OLLAMA_HOST: '127.0.0.1:9',
  LMSTUDIO_BASE_URL: 'http://127.0.0.1:9/v1',
};

/**
 * The command line and environment that run the CLI from source, for a client that spawns it itself (an MCP
 * client's stdio transport launching `mcp serve`).
 */
export function cliInvocation(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { command: string; args: string[]; cwd: string; env: Record<string, string> } {
  const merged = { ...process.env, SWITCHYARD_LOG_LEVEL: 'warn', ...isolatedProviders, ...env };
  const defined = Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return {
    command: process.execPath,
    args: ['--import', 'tsx', cliEntry, ...args],
    cwd: repoRoot,
    env: Object.fromEntries(defined),
  };
}

function spawnCli(args: string[], env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  const invocation = cliInvocation(args, env);
  return spawn(invocation.command, invocation.args, { cwd: invocation.cwd, env: invocation.env });
}

export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliResult> {
  const child = spawnCli(args, options.env ?? {});
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RunningServer {
  baseUrl: string;
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
}

/** Starts `switchyard serve --port 0` and waits for the line that announces its base URL. */
export async function startServer(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const child = spawnCli(['serve', '--port', '0', ...args], env);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString();
      const match = /listening at (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening:\n${stderr}`)));
  });
  return { baseUrl, child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** Kills a server a test left running (nothing when it ended or never started) and waits until it is gone. */
export async function stopServer(server: RunningServer | undefined): Promise<void> {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  await server?.exited;
}

/** The end of a file that ran `switchyard serve`: its servers stopped, what they used closed, its folder removed. */
export async function cleanUpServe(
  folder: string,
  servers: (RunningServer | undefined)[],
  used: Closable[],
): Promise<void> {
  await Promise.all(servers.map(stopServer));
  await closeInTurn(used, folder);
}
