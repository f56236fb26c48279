// Installing from a local registry (the real API, published example documents) through a real McpManager on a
// temp data folder: secrets go through the SecretSink and the file holds what it returned; a missing runtime and
// missing required values are said before anything is written; an installed server is found again and its update
// shows the change.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRegistryServer, type RegistryServerHandle } from '../../../test/support/registry-server.js';
import { McpManager } from '../mcp-manager.js';
import { makeTempDir, removeTempDir, silentLogger } from '../test-support.js';
import { RegistryClient } from './registry-client.js';
import {
  commitInstall,
  installedServers,
  isNewerVersion,
  prepareInstall,
  previewInstall,
  type SecretSink,
} from './registry-install.js';
import { everythingServerJson, everythingVersion, readFixture } from './test-support.js';

let dataDir: string;
let registry: RegistryServerHandle;
let manager: McpManager;
let client: RegistryClient;

beforeEach(async () => {
  dataDir = await makeTempDir();
  registry = await startRegistryServer([
    readFixture('valid/with-package.json'),
    readFixture('valid/weather-pypi.json'),
    readFixture('valid/with-remote.json'),
  ]);
  manager = new McpManager({ dataDir, logger: silentLogger, watch: false });
  client = new RegistryClient(registry.baseUrl);
});
afterEach(async () => {
  await registry.close();
  await removeTempDir(dataDir);
});

/** A sink that remembers what it was given and returns a reference. */
function recordingSink(): SecretSink & { stored: [string, string, string][] } {
  const stored: [string, string, string][] = [];
  return {
    stored,
    store: (entry, field, value) => {
      stored.push([entry, field, value]);
      return Promise.resolve(`\${secret:${entry}.${field}}`);
    },
  };
}

const settingsText = () => readFile(path.join(dataDir, 'mcp_settings.json'), 'utf8').catch(() => '(no file)');
/** The file's servers; none when there is no file yet (reading the settings creates an empty one). */
const writtenServers = async () => {
  const text = await settingsText();
  return text === '(no file)' ? {} : (JSON.parse(text) as { mcpServers: object }).mcpServers;
};
const pathWithNode = path.dirname(process.execPath);

describe('registry install', () => {
  it('a secret goes through the sink: the file holds the reference it returned, never the value', async () => {
    const prepared = await prepareInstall(manager, client, { name: 'io.github.user/local-weather' });
    expect(prepared.entryName).toBe('local-weather');
    const values = { API_KEY: 'sk-live-123456', config_path: '/tmp/w.json' };
    const preview = await previewInstall(prepared, values, `${process.env.PATH}`);
    expect(preview).toEqual({
      review: {
        name: 'local-weather',
        runs: 'npx -y @modelcontextprotocol/server-weather@1.0.0 /tmp/w.json --port 8080',
        envNames: ['API_KEY'],
        warnings: [],
      },
      changes: [],
      missing: [],
    });
    const sink = recordingSink();
    expect((await commitInstall(manager, prepared, values, sink)).saved).toBe(true);
    expect(sink.stored).toEqual([['local-weather', 'API_KEY', 'sk-live-123456']]);
    const text = await settingsText();
    expect(text).not.toContain('sk-live-123456');
    expect(JSON.parse(text).mcpServers['local-weather']).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-weather@1.0.0', '/tmp/w.json', '--port', '8080'],
      env: { API_KEY: '${secret:local-weather.API_KEY}' },
      source: {
        registry: registry.baseUrl,
        name: 'io.github.user/local-weather',
        version: '1.0.0',
        arguments: { config_path: '/tmp/w.json' },
      },
    });
  });

  it('a runtime the machine lacks (uvx) and missing required values are said before anything is written', async () => {
    const prepared = await prepareInstall(manager, client, { name: 'io.github.example/weather-mcp' });
    // A PATH with node but no uvx, as the servers would be started with.
    const preview = await previewInstall(prepared, {}, pathWithNode);
    expect(preview.missing.map((input) => input.key)).toEqual(['WEATHER_API_KEY']);
    expect(preview.missingRuntime).toBe(
      `uvx is not installed here (not found on the PATH servers start with: ${pathWithNode}). Install uv (uvx comes ` +
        'with it): https://docs.astral.sh/uv/getting-started/installation/, then run the install again.',
    );
    await expect(commitInstall(manager, prepared, {}, recordingSink())).rejects.toThrow(
      'Required values are missing, so nothing was written:\n  --env WEATHER_API_KEY=… (API key for weather service)',
    );
    expect(await writtenServers()).toEqual({});
  });

  it('a remote becomes a remote entry; its secret header goes through the sink', async () => {
    const prepared = await prepareInstall(manager, client, { name: 'io.github.user/remote-weather' });
    expect(prepared.runsWith).toBe('remote');
    const sink = recordingSink();
    await commitInstall(manager, prepared, { Authorization: 'Bearer t-secret' }, sink);
    expect(JSON.parse(await settingsText()).mcpServers['remote-weather']).toMatchObject({
      type: 'streamableHttp',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: '${secret:remote-weather.Authorization}' },
    });
    expect(manager.list()).toEqual([]); // never started: the file is written, nothing runs
  });

  it('an installed server is found again; its update shows the change and keeps the values given', async () => {
    registry.publish(everythingServerJson('2026.1.1', '1.0.0'));
    const first = await prepareInstall(manager, client, { name: 'io.github.modelcontextprotocol/everything' });
    await commitInstall(manager, first, { EVERYTHING_NOTE: 'kept' }, recordingSink());
    expect(installedServers(await manager.readSettings())).toEqual([
      {
        entryName: 'everything',
        source: { registry: registry.baseUrl, name: 'io.github.modelcontextprotocol/everything', version: '1.0.0' },
      },
    ]);

    registry.publish(everythingServerJson(everythingVersion, '1.1.0'));
    const update = await prepareInstall(manager, client, { name: 'io.github.modelcontextprotocol/everything' });
    expect(update.installed?.version).toBe('1.0.0');
    expect(isNewerVersion(update.found.server.version, update.installed!.version)).toBe(true);
    const preview = await previewInstall(update, {}, `${process.env.PATH}`);
    expect(preview.changes).toEqual([
      'version: 1.0.0 → 1.1.0',
      'runs: npx -y @modelcontextprotocol/server-everything@2026.1.1',
      `   → npx -y @modelcontextprotocol/server-everything@${everythingVersion}`,
    ]);
    await commitInstall(manager, update, {}, recordingSink());
    const servers = JSON.parse(await settingsText()).mcpServers;
    expect(Object.keys(servers)).toEqual(['everything']);
    expect(servers.everything).toMatchObject({
      args: ['-y', `@modelcontextprotocol/server-everything@${everythingVersion}`],
      env: { EVERYTHING_NOTE: 'kept' },
      source: { version: '1.1.0' },
    });
  });

  it('a name taken by a server from elsewhere is not overwritten', async () => {
    await manager.saveServer('local-weather', { command: 'node', args: ['mine.js'] });
    await expect(prepareInstall(manager, client, { name: 'io.github.user/local-weather' })).rejects.toThrow(
      /There is a server named "local-weather" in .*mcp_settings\.json already; choose another name with --name\./,
    );
  });

  it('a malformed server.json is a clear error naming the server and field, and nothing is written', async () => {
    registry.publish({ name: 'io.github.x/broken', version: '1.0.0', packages: [{ registryType: 'npm' }] });
    await expect(prepareInstall(manager, client, { name: 'io.github.x/broken' })).rejects.toThrow(
      'Registry server "io.github.x/broken": packages[0].identifier: expected a string, got nothing',
    );
    expect(await writtenServers()).toEqual({});
  });
});

describe('isNewerVersion', () => {
  it('compares semantic versions, pre-releases below releases; other versions when they differ', () => {
    expect(isNewerVersion('1.10.0', '1.9.9')).toBe(true);
    expect(isNewerVersion('1.0.0', '1.0.0')).toBe(false);
    expect(isNewerVersion('1.0.0', '1.0.0-beta')).toBe(true);
    expect(isNewerVersion('1.0.0-beta', '1.0.0')).toBe(false);
    expect(isNewerVersion('0.9.0', '1.0.0')).toBe(false);
    expect(isNewerVersion('2025-12', '2025-11')).toBe(true);
  });
});
