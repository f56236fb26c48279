// Shared by the MCP tests: the real servers' entry points, temp data dirs, managers as tests build them, and the
// cleanups after each test.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach } from 'vitest';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { HubAccess } from './hub/hub-access.js';
import { createHubSession } from './hub/hub-server.js';
import { McpManager, type McpManagerOptions } from './mcp-manager.js';
import { listProcesses } from './process-tree.js';

const root = path.resolve(import.meta.dirname, '../..');

export const everythingBin = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const filesystemBin = path.join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const fixtureServer = path.join(import.meta.dirname, '__fixtures__/fixture-server.mjs');
export const samplingServer = path.join(import.meta.dirname, '__fixtures__/sampling-server.mjs');
export const node = process.execPath;

export const silentLogger = pino({ level: 'silent' });

export function everythingEntry(extra: Record<string, unknown> = {}) {
  return { command: node, args: [everythingBin, 'stdio'], ...extra };
}

export function fixtureEntry(flags: string[] = [], extra: Record<string, unknown> = {}) {
  return { command: node, args: [fixtureServer, ...flags], ...extra };
}

/** The sampling fixture: its tool `sample` sends the sampling params it is given and answers what came back. */
export function samplingEntry(extra: Record<string, unknown> = {}) {
  return { command: node, args: [samplingServer], ...extra };
}

/** Skips the login shell in tests: our PATH is complete. */
export const testSearchPath = async () => process.env.PATH ?? '';

export async function makeTempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'switchyard-mcp-'));
}

export async function removeTempDir(directory: string): Promise<void> {
  await rm(directory, { recursive: true, force: true });
}

/** What a test file's afterEach undoes, newest first. */
export type Cleanups = (() => Promise<void>)[];

/** The cleanups of the calling test file, run after each of its tests, newest first. */
export function cleanupsAfterEach(): Cleanups {
  const cleanups: Cleanups = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}

/** A new temp data dir that `cleanups` removes. */
export async function tempDataDir(cleanups: Cleanups): Promise<string> {
  const dataDir = await makeTempDir();
  cleanups.push(() => removeTempDir(dataDir));
  return dataDir;
}

/**
 * A manager over a new temp data dir (or `options.dataDir`), not started: no login shell, no watcher and no
 * restarts unless `options` say so. `cleanups` stops it and removes the folder.
 */
export async function createTestManager(
  cleanups: Cleanups,
  options: Partial<McpManagerOptions> = {},
): Promise<{ dataDir: string; manager: McpManager }> {
  const dataDir = options.dataDir ?? (await tempDataDir(cleanups));
  const manager = new McpManager({
    logger: silentLogger,
    watch: false,
    searchPath: testSearchPath,
    restartPolicy: { maxRestarts: 0 },
    ...options,
    dataDir,
  });
  cleanups.push(() => manager.stop());
  return { dataDir, manager };
}

/** A test manager (see createTestManager) whose settings hold `servers`, started (not settled). */
export async function startTestManager(
  cleanups: Cleanups,
  servers: Record<string, unknown>,
  options: Partial<McpManagerOptions> = {},
): Promise<{ dataDir: string; manager: McpManager }> {
  const started = await createTestManager(cleanups, options);
  await writeSettings(started.dataDir, servers);
  await started.manager.start();
  return started;
}

/** startTestManager once every server has settled; `watch` turns the settings watcher on, with a short debounce. */
export async function startSettledManager(cleanups: Cleanups, servers: Record<string, unknown>, watch = false) {
  const started = await startTestManager(cleanups, servers, { watch, watchDebounceMs: 50 });
  await started.manager.waitUntilSettled();
  return started;
}

export async function writeSettings(dataDir: string, mcpServers: Record<string, unknown>, extra = {}) {
  await writeFile(path.join(dataDir, 'mcp_settings.json'), JSON.stringify({ ...extra, mcpServers }, null, 2));
}

/**
 * An MCP SDK client of the hub over `manager`, connected in memory, that may use every server (as over stdio);
 * `close` ends both sides.
 */
export async function connectHubClient(manager: McpManager, options: ClientOptions = {}) {
  const session = createHubSession(
    manager,
    { keyId: null, keyName: null, access: HubAccess.everything() },
    { logger: silentLogger },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.server.connect(serverSide);
  const client = new Client({ name: 'hub-test', version: '1.0.0' }, options);
  await client.connect(clientSide);
  return { client, close: () => Promise.all([client.close(), session.server.close()]).then(session.dispose) };
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
