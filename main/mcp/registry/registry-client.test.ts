// RegistryClient against a local registry speaking the real API (test/support/registry-server.ts) with the published
// example documents: search pages through the cursor, a malformed document is skipped and named, one version is
// fetched by its URL-encoded name, and a registry that answers badly (404, not JSON, too large, never) gets a clear
// error instead of a crash or a hang.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRegistryServer, type RegistryServerHandle } from '../../../test/support/registry-server.js';
import { RegistryClient, RegistryRequestError, normalizeRegistryUrl } from './registry-client.js';
import { readFixture } from './test-support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function registryWith(documents: unknown[]): Promise<RegistryServerHandle> {
  const registry = await startRegistryServer(documents);
  cleanups.push(() => registry.close());
  return registry;
}

const examples = ['valid/minimal.json', 'valid/with-package.json', 'valid/with-remote.json', 'valid/weather-pypi.json'];

describe('RegistryClient', () => {
  it('search: the latest of each matching server, page by page through nextCursor', async () => {
    const registry = await registryWith(examples.map(readFixture));
    const client = new RegistryClient(registry.baseUrl);
    const first = await client.search({ search: 'weather', limit: 2 });
    expect(first.servers.map((found) => found.server.name)).toEqual([
      'io.github.example/weather-mcp',
      'io.github.user/local-weather',
    ]);
    expect(first.servers[0]).toMatchObject({ status: 'active', isLatest: true });
    expect(first.nextCursor).toBe('io.github.user/local-weather');
    const second = await client.search({ search: 'weather', limit: 2, cursor: first.nextCursor! });
    expect(second.servers.map((found) => found.server.name)).toEqual([
      'io.github.user/remote-weather',
      'io.github.user/weather',
    ]);
    expect(second.nextCursor).toBeUndefined();
    expect(registry.requests).toEqual([
      '/v0/servers?version=latest&search=weather&limit=2',
      '/v0/servers?version=latest&search=weather&cursor=io.github.user%2Flocal-weather&limit=2',
    ]);
  });

  it('a malformed document is left out of its page with the server and field named; the rest are listed', async () => {
    const malformed = {
      name: 'io.github.x/broken',
      version: '1.0.0',
      packages: [{ registryType: 'npm', identifier: 7 }],
    };
    const registry = await registryWith([readFixture('valid/with-package.json'), malformed]);
    const page = await new RegistryClient(registry.baseUrl).search({});
    expect(page.servers.map((found) => found.server.name)).toEqual(['io.github.user/local-weather']);
    expect(page.skipped).toEqual([
      'Registry server "io.github.x/broken": packages[0].identifier: expected a string, got number 7',
    ]);
  });

  it('server: one version by its URL-encoded name, latest by default; a 404 says what is missing', async () => {
    const registry = await registryWith([readFixture('valid/with-remote.json')]);
    const client = new RegistryClient(`${registry.baseUrl}/`);
    const found = await client.server('io.github.user/remote-weather');
    expect(found.server.version).toBe('2.1.0');
    expect(await client.server('io.github.user/remote-weather', '2.1.0')).toEqual(found);
    expect(registry.requests).toEqual([
      '/v0/servers/io.github.user%2Fremote-weather/versions/latest',
      '/v0/servers/io.github.user%2Fremote-weather/versions/2.1.0',
    ]);
    await expect(client.server('io.github.user/remote-weather', '9.9.9')).rejects.toThrow(
      `No version 9.9.9 of server "io.github.user/remote-weather" in the registry ${registry.baseUrl}.`,
    );
    await expect(client.server('io.github.user/nothing')).rejects.toThrow(
      `No server "io.github.user/nothing" in the registry ${registry.baseUrl}.`,
    );
  });

  it('an answer that is not JSON, too large, or never complete is an error, not a crash or a hang', async () => {
    const server = createServer((request, response) => {
      if (request.url?.startsWith('/v0/servers/never')) return; // keeps the request open
      if (request.url?.startsWith('/v0/servers/huge')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end(`{"server": "${'x'.repeat(64 * 1024)}"}`);
      }
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>not an API</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new RegistryClient(baseUrl, { maxBytes: 16 * 1024, timeoutMs: 300 });
    await expect(client.search({ search: 'x' })).rejects.toThrow(
      `The registry ${baseUrl} answered /v0/servers?version=latest&search=x with text that is not JSON.`,
    );
    await expect(client.server('huge')).rejects.toThrow(
      `The registry ${baseUrl} sent more than 16 KiB for one answer.`,
    );
    const never = client.server('never');
    await expect(never).rejects.toBeInstanceOf(RegistryRequestError);
    await expect(never).rejects.toThrow(`Cannot reach the registry ${baseUrl}: no answer in time.`);
  });

  it('the registry URL is checked: https (or http), no credentials or query', () => {
    expect(normalizeRegistryUrl('https://registry.example.com/')).toBe('https://registry.example.com');
    expect(() => normalizeRegistryUrl('ftp://x')).toThrow('must start with https://');
    expect(() => normalizeRegistryUrl('https://user:pw@x')).toThrow('without credentials or query');
    expect(() => normalizeRegistryUrl('registry')).toThrow('is not a URL');
  });
});
