// What every try-agents script shares: running a tool, a real `switchyard serve` on a temporary data dir with one
// provider in front of a scripted upstream (and optionally an alias naming its model), a pass-through that notes
// every request the tool makes, and the helpers that read the upstream's requests.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runCli, startServer, type CliResult, type RunningServer } from '../../test/support/cli.js';
import { answer } from '../../test/support/fake-openai.js';
import type { RecordedRequest, RecordingServer, Step } from '../../test/support/recording-server.js';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (killed after `timeoutMs`), stdin closed. */
export function run(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The tool's binary: `variable` if set, else where `npm run try-agents` installs it, else null. */
function agentBin(variable: string, installDir: string, bin: string): string | null {
  const candidate = process.env[variable] ?? path.join(installDir, 'node_modules', '.bin', bin);
  return fs.existsSync(candidate) ? candidate : null;
}

/** A tool to try, as `npm run try-agents <name>` installs it. */
export interface AgentTool {
  name: string;
  /** The variable that names another binary. */
  variable: string;
  bin: string;
  /** The environment `--version` runs in (default: ours). */
  versionEnv?: NodeJS.ProcessEnv;
  versionTimeoutMs?: number;
}

/** The tool's binary and what its `--version` says; null, after saying how to install it, when it is missing. */
export async function findAgent(tool: AgentTool): Promise<{ bin: string; version: string } | null> {
  const bin = agentBin(tool.variable, path.join(agentsCache, tool.name), tool.bin);
  if (!bin) {
    console.error(`No ${tool.bin}: run \`npm run try-agents ${tool.name}\`, or set ${tool.variable}.`);
    return null;
  }
  const version = await run(bin, ['--version'], {
    env: tool.versionEnv ?? process.env,
    cwd: os.tmpdir(),
    timeoutMs: tool.versionTimeoutMs ?? 60_000,
  });
  return { bin, version: version.stdout.trim() };
}

/** Where `npm run try-agents` installs the tools (outside the repo: no tool is a dependency of Switchyard). */
export const agentsCache = path.join(
  process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'),
  'switchyard-agents',
);

/** The text of a chat message's or tool result's content, whichever shape it has. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { text?: string; content?: unknown }) => part.text ?? (part.content ? textOf(part.content) : ''))
    .join('');
}

interface ChatBody {
  messages: { role: string; content: unknown }[];
}

/** Whether a chat-completions upstream received a tool message quoting `marker`. */
export function chatToolResultCameBack(requests: RecordedRequest[], marker: string): boolean {
  return requests.some((request) =>
    (request.body as unknown as ChatBody).messages.some(
      (message) => message.role === 'tool' && textOf(message.content).includes(marker),
    ),
  );
}

/** The last message of a chat-completions request, when it is the tool's result: the text the model should quote. */
export function toolResultOf(request: RecordedRequest): string | null {
  const last = (request.body as unknown as ChatBody).messages.at(-1);
  return last?.role === 'tool' ? textOf(last.content) : null;
}

/** What a scripted upstream says once the command's output came back: the marker when the output has it. */
export function quotedOutput(output: string, marker: string): string {
  return `The command printed ${output.includes(marker) ? marker : 'nothing I recognise'}.`;
}

/** A chat-completions upstream's answer to the tool's result (quotedOutput); null while no result came back. */
export function answerToToolResult(request: RecordedRequest, marker: string): ReturnType<Step> | null {
  const result = toolResultOf(request);
  return result === null ? null : answer(quotedOutput(result, marker))(request);
}

/** One request the tool made, as the pass-through saw it (any `key=` in the query hidden). */
export interface Seen {
  method: string;
  path: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** The `model` field of a JSON body, or ''. */
  model: string;
}

/**
 * A pass-through in front of the gateway that notes every request the tool makes, so a run shows each endpoint it
 * called and whether the gateway served it. TRACE_DIR=… keeps every request (headers and body) as a file.
 */
async function startWitness(target: string): Promise<{ url: string; seen: Seen[]; close(): void }> {
  const seen: Seen[] = [];
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const pieces: Buffer[] = [];
    incoming.on('data', (piece: Buffer) => pieces.push(piece));
    incoming.on('end', () => {
      const body = Buffer.concat(pieces);
      let model = '';
      try {
        model = String((JSON.parse(body.toString()) as { model?: unknown }).model ?? '');
      } catch {
        // not JSON (a GET): no model
      }
      const shownPath = (incoming.url ?? '').replace(/key=[^&]*/, 'key=…');
      if (process.env.TRACE_DIR) {
        const file = path.join(process.env.TRACE_DIR, `${Date.now()}-${seen.length}.json`);
        const trace = { method: incoming.method, url: shownPath, headers: incoming.headers, body: body.toString() };
        fs.writeFileSync(file, JSON.stringify(trace));
      }
      const forwarded = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (answered) => {
          const status = answered.statusCode ?? 0;
          seen.push({ method: incoming.method ?? '', path: shownPath, status, headers: incoming.headers, model });
          outgoing.writeHead(status || 502, answered.headers);
          answered.pipe(outgoing);
        },
      );
      forwarded.on('error', () => outgoing.destroy());
      forwarded.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

export interface GatewaySetup {
  /** Names the temporary folder. */
  tool: string;
  kind: 'openai' | 'anthropic' | 'google';
  upstream: RecordingServer;
  /** The upstream's API key as the gateway sends it. */
  upstreamKey: string;
  /** The provider's model, `<provider>/<model>`. */
  model: string;
  /** An alias to make for the model (the fixed names tools send). */
  alias?: string;
}

export interface Gateway {
  /** A temporary folder for the tool's home and work dir, removed by close(). */
  root: string;
  /** A fresh gateway key named after the tool. */
  key: string;
  server: RunningServer;
  /** The pass-through's root URL (the gateway's root: add /v1 or /api/v1 as the tool needs). */
  url: string;
  /** What the tool asked for so far. */
  seen: Seen[];
  cli(args: string[]): Promise<CliResult>;
  /** The usage log's rows. */
  usageRows(): Promise<{ app_title?: string | null; model: string }[]>;
  close(): Promise<void>;
}

/** `switchyard serve` on a temporary data dir with the upstream as its one provider, behind a pass-through. */
export async function startGateway(setup: GatewaySetup): Promise<Gateway> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `switchyard-${setup.tool}-`));
  const dataDir = path.join(root, 'data');
  fs.mkdirSync(dataDir);
  const env = { SWITCHYARD_SECRET_STORE: 'file', UP_KEY: setup.upstreamKey };
  const cli = (args: string[]) => runCli([...args, '--data-dir', dataDir], { env });
  const must = async (args: string[]) => {
    const result = await cli(args);
    if (result.code !== 0) throw new Error(`switchyard ${args.slice(0, 2).join(' ')} failed: ${result.stderr}`);
    return result.stdout;
  };
  let server: RunningServer | null = null;
  let witness: Awaited<ReturnType<typeof startWitness>> | null = null;
  const close = async () => {
    witness?.close();
    if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
    await server?.exited;
    await setup.upstream.close();
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    const upstreamUrl = await setup.upstream.start();
    const providerId = setup.model.split('/')[0]!;
    await must([
      'providers',
      'add',
      providerId,
      '--kind',
      setup.kind,
      '--base-url',
      upstreamUrl,
      '--api-key-env',
      'UP_KEY',
    ]);
    if (setup.alias) await must(['models', 'alias', setup.alias, setup.model]);
    const key = (JSON.parse(await must(['keys', 'create', '--name', setup.tool, '--json'])) as { key: string }).key;
    server = await startServer(['--data-dir', dataDir], env);
    witness = await startWitness(server.baseUrl.replace(/\/api\/v1$/, ''));
    const usageRows = async () => {
      const usage = await cli(['usage', '--rows', '--json']);
      return usage.code === 0 ? (JSON.parse(usage.stdout) as { app_title?: string | null; model: string }[]) : [];
    };
    return { root, key, server, url: witness.url, seen: witness.seen, cli, usageRows, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A temporary folder under the gateway's root, created. */
export function folder(gateway: Gateway, ...parts: string[]): string {
  const dir = path.join(gateway.root, ...parts);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The last line of a tool's printed answer. */
export function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}
