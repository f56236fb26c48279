// How one attempt to reach an MCP server is set up and torn down: the entry prepared for a start (variables
// expanded, url and working directory checked, the PATH and a stored sign-in found), the transport opened (a child
// process, streamable HTTP or SSE), the start-up deadline, and the close that takes the process tree with it.
// server-connection.ts decides when to do each; this says how.

import { stat } from 'node:fs/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describeExit } from './describe-start-failure.js';
import { ServerSetupError } from './start-errors.js';
import { expandServerConfig } from './expand-env.js';
import type { LogBuffer } from './log-buffer.js';
import { resolveStartSecrets, type McpSecrets } from './mcp-secrets.js';
import type { ServerOAuthProvider } from './oauth/index.js';
import { ProcessTransport } from './process-transport.js';
import { serverEnvironment } from './server-environment.js';
import { checkUrl, type RemoteServerConfig, type ServerConfig } from './settings-schema.js';

export interface Session {
  client: Client;
  transport: Transport;
  /** Set for stdio servers. */
  process?: ProcessTransport;
  /** The handshake completed: from now on a close is a crash. */
  ready: boolean;
  /** We closed it (stop, failure): a handshake finishing late must not bring it back. */
  closed: boolean;
}

export interface Prepared {
  config: ServerConfig;
  /** For messages and the log, when `config` holds `${secret:…}` values: the same with those references kept. */
  shown?: ServerConfig;
  searchPath?: string;
  /** Remote servers, when sign-ins can be stored. */
  oauth?: ServerOAuthProvider;
}

export class StartupTimeout extends Error {
  constructor(readonly afterMs: number) {
    super(`start-up timeout after ${afterMs} ms`);
  }
}

/** What preparing an entry needs from its connection. */
export interface PrepareContext {
  environment: NodeJS.ProcessEnv;
  searchPath: () => Promise<string>;
  log: LogBuffer;
  /** The stored sign-in for a remote server, when there is one to use. */
  oauthProvider(config: RemoteServerConfig): Promise<ServerOAuthProvider | undefined>;
  /** Where `${secret:NAME}` values are read; without it an entry that uses one does not start. */
  secrets?: McpSecrets;
}

/** The entry as it will run: variables expanded and what can be checked before starting it checked. */
export async function prepareServer(settings: ServerConfig, context: PrepareContext): Promise<Prepared> {
  const secrets = await resolveStartSecrets(settings, context.secrets);
  const { value: config, missing } = expandServerConfig(settings, context.environment, secrets);
  const shown = secrets ? { shown: expandServerConfig(settings, context.environment).value } : {};
  for (const name of missing) context.log.add('switchyard', `\${env:${name}} is not set; using an empty string.`);
  if (config.transport !== 'stdio') {
    const problem = checkUrl(config.url);
    // Quoting the url would quote its secrets.
    if (problem && secrets)
      throw new ServerSetupError('The url setting, its secrets filled in, is not an http(s) URL.');
    if (problem) throw new ServerSetupError(`The url setting: ${problem}.`);
    const oauth = await context.oauthProvider(config);
    return { config, ...shown, ...(oauth ? { oauth } : {}) };
  }
  if (config.cwd && !(await isDirectory(config.cwd))) {
    throw new ServerSetupError(`Working directory "${config.cwd}" (the cwd setting) does not exist.`);
  }
  return { config, ...shown, searchPath: await context.searchPath() };
}

/**
 * Builds the transport for a prepared entry; starts nothing yet. `written`: the entry as the settings have it, for
 * the log (the expanded form may hold secrets from the environment).
 */
export function openTransport(
  prepared: Prepared,
  transportKind: ServerConfig['transport'],
  written: ServerConfig,
  events: { log: LogBuffer; onNonProtocolLine(line: string): void },
): { transport: Transport; process?: ProcessTransport } {
  const { config } = prepared;
  const { log } = events;
  if (config.transport === 'stdio') {
    const process = new ProcessTransport({
      command: config.command,
      args: config.args,
      env: serverEnvironment(prepared.searchPath ?? '', config.env),
      ...(config.cwd ? { cwd: config.cwd } : {}),
      onStderrLine: (line) => log.add('stderr', line),
      onNonProtocolLine: (line) => events.onNonProtocolLine(line),
      onExit: (exit) => log.add('switchyard', `${describeExit(exit)}.`),
    });
    const command = written.transport === 'stdio' ? written : config;
    log.add('switchyard', `Starting: ${[command.command, ...command.args].map(quoteIfNeeded).join(' ')}`);
    return { transport: process, process };
  }
  const options = {
    requestInit: { headers: config.headers },
    ...(prepared.oauth ? { authProvider: prepared.oauth, fetch: prepared.oauth.fetch } : {}),
  };
  const transport =
    transportKind === 'sse'
      ? new SSEClientTransport(new URL(config.url), options)
      : new StreamableHTTPClientTransport(new URL(config.url), options);
  const shownUrl = prepared.shown?.transport === config.transport ? prepared.shown.url : config.url;
  log.add('switchyard', `Connecting to ${shownUrl} (${transportKind}).`);
  return { transport };
}

/** A promise that rejects when the start-up time is up, and its off switch. */
export function startDeadline(ms: number): { expired: Promise<never>; clear(): void } {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StartupTimeout(ms)), ms);
  });
  expired.catch(() => undefined); // nobody may be racing it any more when it fires
  return { expired, clear: () => clearTimeout(timer) };
}

/** The SDK's documented back-compat rule: a 4xx to the streamable HTTP POST means "try the old SSE transport". */
export function isFallbackToSse(config: ServerConfig, error: unknown): boolean {
  if (config.transport === 'stdio' || !config.sseFallback) return false;
  const status = error instanceof StreamableHTTPError ? error.code : undefined;
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/** `polite`: let the server exit on its own first (a normal stop); otherwise terminate it at once (it failed). */
export async function closeSession(session: Session, polite = true): Promise<void> {
  session.ready = false;
  session.closed = true;
  if (!polite) await session.process?.terminate();
  try {
    await session.client.close();
  } catch {
    // Closing a half-open session can fail; the process is what matters.
  }
  await session.process?.close();
}

function quoteIfNeeded(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word);
}

async function isDirectory(directory: string): Promise<boolean> {
  return stat(directory).then(
    (found) => found.isDirectory(),
    () => false,
  );
}
