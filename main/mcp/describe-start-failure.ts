// The message for a server that will not start: the failure users of every MCP app report most, usually with
// nothing to go on. Each cause gets a message that says what happened and what to do, with the server's own
// last words from stderr.

import path from 'node:path';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SignInRequiredError } from './oauth/index.js';
import type { ExitInfo } from './process-transport.js';
import type { ServerConfig } from './settings-schema.js';
import { causeChainText, errorText, networkErrorCode, ServerSetupError } from './start-errors.js';

export interface StartFailure {
  error: unknown;
  /** The config as started, with `${env:…}` expanded. */
  config: ServerConfig;
  /** Set when the start-up timeout fired. */
  timedOutAfterMs?: number;
  exit?: ExitInfo;
  stderrTail: string[];
  nonProtocolLine?: string;
  /** The PATH the command was looked up in. */
  searchPath?: string;
}

export interface FailureDescription {
  message: string;
  /** Whether trying again may help (a crash, a network error), as opposed to a setting that must change. */
  retryable: boolean;
}

export function describeStartFailure(failure: StartFailure): FailureDescription {
  const { error, config } = failure;
  if (error instanceof ServerSetupError) return { message: error.message, retryable: false };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (config.transport === 'stdio' && (code === 'ENOENT' || code === 'EACCES') && isSpawnError(error)) {
    return { message: describeSpawnError(config.command, code, failure.searchPath), retryable: false };
  }
  const stderr = describeStderr(failure.stderrTail);
  const stdout = failure.nonProtocolLine ? ` ${describeNonProtocolOutput(failure.nonProtocolLine)}` : '';
  if (failure.timedOutAfterMs !== undefined) {
    const npxHint =
      config.transport === 'stdio' && /^npx(\.cmd)?$/.test(path.basename(config.command))
        ? ' npx may be waiting for the network: with the package already downloaded, adding "npm_config_prefer_offline": "true" to env makes it start offline.'
        : '';
    return {
      message: `Did not complete the MCP handshake within ${formatSeconds(failure.timedOutAfterMs)}.${stdout}${npxHint}${stderr}`,
      retryable: false,
    };
  }
  if (failure.exit) {
    return { message: `${describeExit(failure.exit)} before the MCP handshake.${stdout}${stderr}`, retryable: true };
  }
  if (config.transport !== 'stdio') return describeRemoteError(error, config.url);
  return { message: `The MCP handshake failed: ${errorText(error)}.${stdout}${stderr}`, retryable: false };
}

export function describeExit(exit: ExitInfo): string {
  if (exit.signal) return `Was killed by ${exit.signal}`;
  return `Exited with code ${exit.code ?? 'unknown'}`;
}

export function describeNonProtocolOutput(line: string): string {
  const shown = line.length > 120 ? `${line.slice(0, 120)}…` : line;
  return `It printed non-protocol text on stdout: ${JSON.stringify(shown)} — MCP servers must write only JSON-RPC messages to stdout and log to stderr.`;
}

export function describeStderr(lines: string[]): string {
  if (lines.length === 0) return ' It wrote nothing to stderr.';
  return ` Last lines on stderr:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}

function describeSpawnError(command: string, code: 'ENOENT' | 'EACCES', searchPath: string | undefined): string {
  const isPath = command.includes('/') || command.includes('\\');
  if (code === 'EACCES') {
    return `Command "${command}" is not executable (EACCES). Check its permissions (chmod +x), or start it through its interpreter, e.g. "command": "node", "args": ["${command}"].`;
  }
  if (isPath) return `Command "${command}" not found (ENOENT). Check the path: the file does not exist.`;
  return (
    `Command "${command}" not found (ENOENT). Check the command name, or use an absolute path ` +
    `(run \`which ${command}\` in a terminal); PATH searched: ${searchPath || '(empty)'}`
  );
}

function describeRemoteError(error: unknown, url: string): FailureDescription {
  if (error instanceof SignInRequiredError) {
    return {
      message: `${url} answered 401 and describes no OAuth sign-in: set its credentials in "headers" (e.g. Authorization).`,
      retryable: false,
    };
  }
  const status = error instanceof StreamableHTTPError || error instanceof SseError ? error.code : undefined;
  if (status === 401 || status === 403) {
    return {
      message: `${url} answered ${status}: the server wants credentials; set them in "headers" (e.g. Authorization).`,
      retryable: false,
    };
  }
  if (status !== undefined && status >= 400 && status < 500) {
    return { message: `${url} answered ${status}: check the url and the type.`, retryable: false };
  }
  const cause = networkErrorCode(error);
  if (cause === 'ECONNREFUSED') return { message: `Cannot reach ${url}: connection refused.`, retryable: true };
  if (cause === 'ENOTFOUND') return { message: `Cannot reach ${url}: unknown host.`, retryable: true };
  return { message: `Cannot connect to ${url}: ${causeChainText(error)}.`, retryable: true };
}

function isSpawnError(error: unknown): boolean {
  const syscall = (error as NodeJS.ErrnoException).syscall;
  return syscall === undefined || syscall.startsWith('spawn');
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
