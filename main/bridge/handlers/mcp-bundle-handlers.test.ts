// The MCP screen's bundle channels through the real bridge (validation included) of a real app: a bundle's preview
// (what it is, its signature's state, what it runs, its settings and which are missing), its install with a
// sensitive value kept out of the settings file, and each refusal as the UI gets it — a code and a clear message,
// nothing written.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BridgeChannel, BridgeRequest } from '../../../shared/bridge/contract.js';
import { maxBundleBytes } from '../../../shared/bridge/limits.js';
import { bundleManifest, zipBundle } from '../../mcp/bundles/test-support.js';
import type { BridgeHandlers } from '../create-bridge-handlers.js';
import { invokeFailure, invokeOk, serversOnDisk, useBridgeApp } from '../test-support.js';

let dataDir: string;
let bridge: BridgeHandlers;

useBridgeApp((started) => ({ dataDir, bridge } = started), { models: [] });

const call = <C extends BridgeChannel>(channel: C, request: BridgeRequest<C>) => invokeOk(bridge, channel, request);
const failure = (channel: BridgeChannel, request: unknown) => invokeFailure(bridge, channel, request);
const settingsFile = () => path.join(dataDir, 'mcp_settings.json');
const servers = () => serversOnDisk(dataDir);
const bundleFolders = () =>
  fs.existsSync(path.join(dataDir, 'mcp-bundles')) ? fs.readdirSync(path.join(dataDir, 'mcp-bundles')) : [];

const manifest = bundleManifest({
  server: {
    type: 'node',
    mcp_config: {
      command: 'node',
      args: ['${__dirname}/server/index.js'],
      env: { NOTES_TOKEN: '${user_config.token}' },
    },
  },
  user_config: {
    token: { type: 'string', title: 'Token', description: 'The API token', sensitive: true, required: true },
  },
});
const data = Buffer.from(zipBundle({ 'server/index.js': 'process.stdin.resume()' }, manifest)).toString('base64');

describe('the MCP bundle channels', () => {
  it('previews what the bundle is and runs, then installs it with its sensitive value in the secret store', async () => {
    const preview = await call('mcp:bundle-preview', { fileName: 'notes.mcpb', data, values: {} });
    const folder = path.join(dataDir, 'mcp-bundles', 'notes');
    expect(preview).toMatchObject({
      name: 'notes',
      version: '1.0.0',
      author: 'Ada',
      signature: 'Not signed',
      entryName: 'notes',
      folder,
      review: { runs: `node ${folder}/server/index.js`, envNames: ['NOTES_TOKEN'] },
      inputs: [{ key: 'token', title: 'Token', sensitive: true, required: true, type: 'string' }],
      missing: ['token'],
      problems: [],
    });
    expect(await failure('mcp:bundle-install', { fileName: 'notes.mcpb', data, values: {} })).toEqual({
      code: 'invalid-request',
      message: 'Required settings are missing, so nothing was written:\n  --config token=… (Token)',
    });
    expect([servers(), bundleFolders()]).toEqual([{}, []]);

    // What a killed install left a day ago is cleared; what one running alongside is writing now is not.
    const abandoned = path.join(dataDir, 'mcp-bundles', '.incoming-abandoned');
    const running = path.join(dataDir, 'mcp-bundles', '.incoming-running');
    for (const folder of [abandoned, running]) fs.mkdirSync(path.join(folder, 'server'), { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    fs.utimesSync(abandoned, twoDaysAgo, twoDaysAgo);

    const token = 'tok-0123456789-abcdef';
    expect(await call('mcp:bundle-install', { fileName: 'notes.mcpb', data, values: { token: [token] } })).toEqual({
      entryName: 'notes',
    });
    expect(servers()).toMatchObject({ notes: { env: { NOTES_TOKEN: '${secret:notes.token}' } } });
    expect(fs.readFileSync(settingsFile(), 'utf8')).not.toContain(token);
    expect(fs.readFileSync(path.join(folder, 'server/index.js'), 'utf8')).toBe('process.stdin.resume()');
    expect(bundleFolders().sort()).toEqual(['.incoming-running', 'notes']);
  });

  it('refuses an unsafe bundle and one over the size limit, writing nothing', async () => {
    const climbing = Buffer.from(zipBundle({ '../x.js': 'x' })).toString('base64');
    expect(await failure('mcp:bundle-preview', { fileName: 'bad.mcpb', data: climbing, values: {} })).toEqual({
      code: 'invalid-request',
      message: '"../x.js" in the bundle would be written outside its folder; refused.',
    });
    const oversized = 'A'.repeat(Math.ceil(maxBundleBytes / 3) * 4 + 4);
    expect(await failure('mcp:bundle-install', { fileName: 'big.mcpb', data: oversized, values: {} })).toMatchObject({
      code: 'invalid-request',
      message: expect.stringContaining('a bundle of at most 32 MiB'),
    });
    expect([servers(), bundleFolders()]).toEqual([{}, []]);
  });
});
