// Shared by the MCP tests: the real servers' entry points, temp data dirs, and waiting on conditions.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { McpManager, type McpManagerOptions } from './mcp-manager.js';
import { listProcesses } from './process-tree.js';

const root = path.resolve(import.meta.dirname, '../..');

export const everythingBin = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const filesystemBin = path.join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const fixtureServer = path.join(import.meta.dirname, '__fixtures__/fixture-server.mjs');
export const node = process.execPath;

export const silentLogger = pino({ level: 'silent' });

export function everythingEntry(extra: Record<string, unknown> = {}) {
  return { command: node, args: [everythingBin, 'stdio'], ...extra };
}

export function fixtureEntry(flags: string[] = [], extra: Record<string, unknown> = {}) {
  return { command: node, args: [fixtureServer, ...flags], ...extra };
}

/** Skips the login shell in tests: our PATH is complete. */
export const testSearchPath = async () => process.env.PATH ?? '';

export async function makeTempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'switchyard-mcp-'));
}

export async function removeTempDir(directory: string): Promise<void> {
  await rm(directory, { recursive: true, force: true });
}

/** What a test file's afterEach undoes, newest first: `for (const cleanup of cleanups.splice(0).reverse())`. */
export type Cleanups = (() => Promise<void>)[];

/**
 * A manager over a new temp data dir holding `servers`, started (not settled): no watcher and no restarts unless
 * `options` say so. `cleanups` stops it and removes the folder.
 */
export async function startTestManager(
  cleanups: Cleanups,
  servers: Record<string, unknown>,
  options: Partial<McpManagerOptions> = {},
): Promise<{ dataDir: string; manager: McpManager }> {
  const dataDir = await makeTempDir();
  cleanups.push(() => removeTempDir(dataDir));
  await writeSettings(dataDir, servers);
  const manager = new McpManager({
    dataDir,
    logger: silentLogger,
    watch: false,
    searchPath: testSearchPath,
    restartPolicy: { maxRestarts: 0 },
    ...options,
  });
  cleanups.push(() => manager.stop());
  await manager.start();
  return { dataDir, manager };
}

export async function writeSettings(dataDir: string, mcpServers: Record<string, unknown>, extra = {}) {
  await writeFile(path.join(dataDir, 'mcp_settings.json'), JSON.stringify({ ...extra, mcpServers }, null, 2));
}

export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Every live descendant of `pid` (Linux /proc). */
export function descendantsOf(pid: number): number[] {
  const processes = listProcesses().filter((entry) => entry.state !== 'Z');
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const child of processes.filter((entry) => entry.ppid === parent)) {
      found.push(child.pid);
      queue.push(child.pid);
    }
  }
  return found;
}
