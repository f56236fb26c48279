// The hub's first answers as a client sees them right after the hub starts: many clients (the MCP Inspector's CLI,
// Claude Desktop) list tools once and never again, so the first list must already hold the servers that start in
// time, over stdio (`switchyard mcp serve`) and at `/mcp` (`switchyard serve`), both run as a user runs them.

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  everythingEntry,
  filesystemBin,
  fixtureEntry,
  makeTempDir,
  node,
  removeTempDir,
  writeSettings,
} from '../../main/mcp/test-support.js';
import { cliInvocation, runCli, startServer, type RunningServer } from '../support/cli.js';
import { waitFor } from '../support/wait-for.js';

const env = { SWITCHYARD_SECRET_STORE: 'file' };
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const directory = await makeTempDir();
  cleanups.push(() => removeTempDir(directory));
  return directory;
}

/** `switchyard mcp serve` launched by the SDK's stdio client, as an MCP client launches it. */
async function stdioHub(dataDir: string, flags: string[] = []): Promise<Client> {
  const client = new Client({ name: 'startup-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    ...cliInvocation(['mcp', 'serve', '--data-dir', dataDir, ...flags], env),
    stderr: 'pipe',
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

/** `switchyard serve`, stopped with SIGTERM after the test so that it stops its MCP servers too. */
async function serve(dataDir: string): Promise<RunningServer> {
  const server = await startServer(['--no-ui', '--data-dir', dataDir], env);
  cleanups.push(async () => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return;
    server.child.kill('SIGTERM');
    const stuck = setTimeout(() => server.child.kill('SIGKILL'), 20_000);
    await server.exited;
    clearTimeout(stuck);
  });
  return server;
}

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

async function realServers(): Promise<string> {
  const dataDir = await tempDir();
  const filesDir = await tempDir();
  await writeSettings(dataDir, {
    everything: everythingEntry(),
    files: { command: node, args: [filesystemBin, filesDir] },
  });
  return dataDir;
}

describe("the hub's first list", () => {
  it('holds the tools of the servers that connect, at /mcp right after serve starts', async () => {
    const dataDir = await realServers();
    const created = await runCli(
      ['keys', 'create', '--name', 'inspector', '--allow-mcp', '*', '--json', '--data-dir', dataDir],
      { env },
    );
    expect(created.code, created.stderr).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const server = await serve(dataDir);

    const client = new Client({ name: 'startup-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    cleanups.push(() => client.close());
    // Once, as the Inspector's CLI does.
    const names = await toolNames(client);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'files__read_text_file']));
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('everything__simple-prompt');
  }, 60_000);

  it('leaves out a server still starting after --hub-wait, and announces it when it connects', async () => {
    const dataDir = await tempDir();
    const gate = path.join(await tempDir(), 'start');
    await writeSettings(dataDir, { fast: fixtureEntry(), slow: fixtureEntry(['--wait-for', gate]) });
    const client = await stdioHub(dataDir, ['--hub-wait', '5']);
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });

    let firstListAnswered = false;
    const firstList = toolNames(client).finally(() => (firstListAnswered = true));
    // The list waits for the slow server; other requests do not wait with it.
    await client.ping();
    expect(firstListAnswered).toBe(false);
    const names = await firstList;
    expect(names).toEqual(expect.arrayContaining(['fast__alpha', 'fast__delta']));
    expect(names.filter((name) => name.startsWith('slow__'))).toEqual([]);

    await writeFile(gate, '');
    await waitFor(() => changes > 0, { what: 'tools/list_changed for the slow server' });
    expect(await toolNames(client)).toEqual(expect.arrayContaining(['fast__alpha', 'slow__alpha']));
  }, 60_000);

  it('is not held back by servers that fail at once', async () => {
    const dataDir = await tempDir();
    await writeSettings(dataDir, {
      everything: everythingEntry(),
      // Exits at once: restarted later under the hub, which must not wait for those restarts.
      crashing: { command: node, args: ['-e', 'process.exit(1)'] },
      missing: { command: 'switchyard-test-no-such-command' },
    });
    const waitSeconds = 60;
    const started = Date.now();
    const client = await stdioHub(dataDir, ['--hub-wait', String(waitSeconds)]);
    const names = await toolNames(client);
    const elapsedMs = Date.now() - started;
    expect(names).toContain('everything__echo');
    expect(names.filter((name) => !name.startsWith('everything__'))).toEqual([]);
    // The list comes when the failures are known, a small part of the bound (a machine however slow starts
    // server-everything in far less than this).
    expect(elapsedMs).toBeLessThan((waitSeconds * 1000) / 3);
  }, 90_000);
});
