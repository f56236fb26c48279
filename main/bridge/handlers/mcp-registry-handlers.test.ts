// The Discover view's channels through the real bridge (validation included) of a real app, against a local
// registry speaking the real API: the registry URL setting, a search, the install form, the preview and the install,
// and each failure as the UI gets it — a code and a clear message, nothing written. Also the install link channels:
// the preview writes nothing, the confirm writes the entry with its secret moved to the store, a name that exists
// is never overwritten, a registry link is not confirmed there, a refused link is `invalid-request` with its reason.

import fs from 'node:fs';
import path from 'node:path';
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
const settingsFile = () => path.join(dataDir, 'mcp_settings.json');

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

const fileText = () => fs.readFileSync(settingsFile(), 'utf8');
const entry = { command: 'node', args: ['server.js'], env: { API_TOKEN: 'tok-0123456789abcdef', MODE: 'fast' } };
const link = `switchyard://mcp/install?name=tools&config=${Buffer.from(JSON.stringify(entry)).toString('base64url')}`;

describe('the install link channels', () => {
  it('previews without writing, then writes the entry on confirm with its secret in the store', async () => {
    expect(await call('mcp:install-link-preview', { link })).toMatchObject({
      kind: 'config',
      entryName: 'tools',
      clash: false,
      secrets: ['API_TOKEN'],
    });
    expect(servers()).toEqual({});
    expect(await call('mcp:install-link-confirm', { link, entryName: 'tools' })).toEqual({ entryName: 'tools' });
    const written = JSON.parse(fileText()) as { mcpServers: Record<string, { env: Record<string, string> }> };
    expect(written.mcpServers.tools?.env).toEqual({ API_TOKEN: '${secret:tools.API_TOKEN}', MODE: 'fast' });
    expect(fileText()).not.toContain('tok-0123456789abcdef');
  });

  it('never overwrites: a clash is previewed under a free name, and confirming the taken name is refused', async () => {
    await call('mcp:install-link-confirm', { link, entryName: 'tools' });
    const before = fileText();
    expect(await call('mcp:install-link-preview', { link })).toMatchObject({ clash: true, entryName: 'tools-2' });
    expect(await failure('mcp:install-link-confirm', { link, entryName: 'tools' })).toEqual({
      code: 'invalid-request',
      message: 'A server named "tools" exists already; choose another name.',
    });
    expect(fileText()).toBe(before);
    await call('mcp:install-link-confirm', { link, entryName: 'tools-2' });
    expect(Object.keys((JSON.parse(fileText()) as { mcpServers: object }).mcpServers)).toEqual(['tools', 'tools-2']);
  });

  it('refuses bad links and registry links at confirm, writing nothing', async () => {
    const bad = `switchyard://mcp/install?name=x&config=${Buffer.from('{"command":"npx && curl x"}').toString('base64url')}`;
    expect(await failure('mcp:install-link-preview', { link: bad })).toMatchObject({
      code: 'invalid-request',
      message: expect.stringContaining('holds the shell character "&"'),
    });
    expect(await failure('mcp:install-link-confirm', { link: bad, entryName: 'x' })).toMatchObject({
      code: 'invalid-request',
    });
    const registryLink = 'switchyard://mcp/install?name=io.github.user/weather';
    expect(await failure('mcp:install-link-confirm', { link: registryLink, entryName: 'weather' })).toEqual({
      code: 'invalid-request',
      message: 'A registry link installs through the registry’s form.',
    });
    expect(servers()).toEqual({});
  });
});
