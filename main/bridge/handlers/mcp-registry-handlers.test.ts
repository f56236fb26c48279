// The Discover view's channels through the real bridge (validation included) of a real app, against a local
// registry speaking the real API: the registry URL setting, a search, the install form, the preview and the install,
// and each failure as the UI gets it — a code and a clear message, nothing written.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BridgeChannel, BridgeRequest } from '../../../shared/bridge/contract.js';
import { startRegistryServer, type RegistryServerHandle } from '../../../test/support/registry-server.js';
import { readFixture } from '../../mcp/registry/test-support.js';
import type { BridgeHandlers } from '../create-bridge-handlers.js';
import { invokeFailure, invokeOk, serversOnDisk, useBridgeApp } from '../test-support.js';

let dataDir: string;
let bridge: BridgeHandlers;
let registry: RegistryServerHandle;

useBridgeApp((started) => ({ dataDir, bridge } = started), { models: [] });
beforeEach(async () => {
  registry = await startRegistryServer([readFixture('valid/with-package.json'), readFixture('valid/with-remote.json')]);
});
afterEach(() => registry.close());

const call = <C extends BridgeChannel>(channel: C, request: BridgeRequest<C>) => invokeOk(bridge, channel, request);
const failure = (channel: BridgeChannel, request: unknown) => invokeFailure(bridge, channel, request);
const servers = () => serversOnDisk(dataDir);

describe('the MCP Registry channels', () => {
  it('the registry URL: official until set, a bad one refused, a local one used by search', async () => {
    expect(await call('mcp:registry-url', {})).toEqual({
      url: 'https://registry.modelcontextprotocol.io',
      defaultUrl: 'https://registry.modelcontextprotocol.io',
    });
    expect(await failure('mcp:set-registry-url', { url: 'not a url' })).toEqual({
      code: 'invalid-request',
      message: 'The registry URL "not a url" is not a URL; expected e.g. https://registry.modelcontextprotocol.io',
    });
    await call('mcp:set-registry-url', { url: registry.baseUrl });
    const page = await call('mcp:registry-search', { search: 'weather' });
    expect(page.servers.map((server) => [server.name, server.runs, server.needsSecrets])).toEqual([
      ['io.github.user/local-weather', ['npx'], true],
      ['io.github.user/remote-weather', ['remote'], true],
    ]);
  });

  it('form, preview and install: missing values stop it with nothing written; given, the entry is written', async () => {
    await call('mcp:set-registry-url', { url: registry.baseUrl });
    const name = 'io.github.user/local-weather';
    const form = await call('mcp:registry-install-form', { name });
    expect(form).toMatchObject({ version: '1.0.0', runsWith: 'npx', entryName: 'local-weather', kept: [] });
    expect(form.inputs.map((input) => [input.key, input.kind, input.required, input.secret])).toEqual([
      ['config_path', 'arg', false, false],
      ['API_KEY', 'env', true, true],
    ]);
    const preview = await call('mcp:registry-preview', { name, version: '1.0.0', values: {} });
    expect(preview.missing).toEqual(['API_KEY']);
    expect(preview.review.runs).toBe('npx -y @modelcontextprotocol/server-weather@1.0.0 --port 8080');
    expect(await failure('mcp:registry-install', { name, version: '1.0.0', values: {} })).toEqual({
      code: 'invalid-request',
      message: 'Required: API_KEY.',
    });
    expect(servers()).toEqual({});

    const written = await call('mcp:registry-install', { name, version: '1.0.0', values: { API_KEY: 'k-1' } });
    expect(written).toMatchObject({ saved: true, entryName: 'local-weather' });
    expect(servers()).toMatchObject({ 'local-weather': { source: { name, version: '1.0.0' } } });
    expect((await call('mcp:registry-search', { search: 'local' })).servers[0]?.installed).toEqual({
      entryName: 'local-weather',
      version: '1.0.0',
      updateAvailable: false,
    });
  });

  it('an unreachable registry, an unknown server and a bad request each come back as a clear failure', async () => {
    // A port nothing listens on: the registry's own, once it has closed.
    const closed = registry.baseUrl;
    await registry.close();
    await call('mcp:set-registry-url', { url: closed });
    expect(await failure('mcp:registry-search', { search: 'x' })).toEqual({
      code: 'unavailable',
      message: `Cannot reach the registry ${closed}: ECONNREFUSED.`,
    });
    registry = await startRegistryServer([readFixture('valid/with-package.json')]);
    await call('mcp:set-registry-url', { url: registry.baseUrl });
    expect(await failure('mcp:registry-install-form', { name: 'io.github.user/none' })).toEqual({
      code: 'not-found',
      message: `No server "io.github.user/none" in the registry ${registry.baseUrl}.`,
    });
    expect((await failure('mcp:registry-preview', { name: 'io.github.user/local-weather', values: 'x' })).code).toBe(
      'invalid-request',
    );
  });
});
