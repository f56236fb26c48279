// What `switchyard serve` loads when it starts: the MCP SDK only once the settings name a server, and neither the
// PostgreSQL driver nor the file parsers of `connect` (docs/decisions/018-idle-memory.md). A module loaded at start
// stays in memory for as long as the gateway runs, used or not.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../support/cli.js';
import { waitFor } from '../support/wait-for.js';

const recordModules = fileURLToPath(new URL('../support/record-modules.mjs', import.meta.url));
const fixtureServer = fileURLToPath(new URL('../../main/mcp/__fixtures__/fixture-server.mjs', import.meta.url));
const dataDirs: string[] = [];

afterEach(() => {
  for (const dataDir of dataDirs.splice(0)) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The packages under node_modules that `serve` loaded by the time it started its MCP servers. */
async function packagesLoadedAtStart(mcpServers: Record<string, unknown>): Promise<Set<string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-startup-'));
  dataDirs.push(dataDir);
  fs.writeFileSync(path.join(dataDir, 'mcp_settings.json'), JSON.stringify({ mcpServers }));
  const modulesFile = path.join(dataDir, 'modules.txt');
  const server = await startServer(['--data-dir', dataDir], {
    SWITCHYARD_SECRET_STORE: 'file',
    SWITCHYARD_TEST_MODULES_FILE: modulesFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(recordModules).href}`,
  });
  try {
    // Printed once the MCP servers were started (without waiting for their handshakes).
    await waitFor(() => server.stderr().includes('Press Ctrl+C'), { what: 'serve to start its MCP servers' });
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  const urls = fs.readFileSync(modulesFile, 'utf8').split('\n');
  return new Set(urls.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
}

describe('switchyard serve at start', () => {
  it('loads neither the MCP SDK without MCP servers, nor pg on SQLite, nor the parsers of connect', async () => {
    const loaded = await packagesLoadedAtStart({});
    expect(loaded).toContain('zod'); // the record works
    for (const unused of ['@modelcontextprotocol/sdk', 'pg', 'yaml', 'smol-toml', 'jsonc-parser']) {
      expect(loaded).not.toContain(unused);
    }
  }, 60_000);

  it('loads the MCP SDK when the settings name a server', async () => {
    const loaded = await packagesLoadedAtStart({ fixture: { command: process.execPath, args: [fixtureServer] } });
    expect(loaded).toContain('@modelcontextprotocol/sdk');
  }, 60_000);
});
