// Remote MCP servers that want OAuth: "needs sign-in" before, the browser sign-in (discovery, registration, the
// code flow with PKCE), tokens in the secret store and nowhere else, refresh when the access token expires,
// "needs sign-in" again when the refresh token is gone, sign-out.

import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpManager, OAuthCredentials, oauthAccountFor, toolResultText } from '../../main/mcp/index.js';
import { makeTempDir, removeTempDir, silentLogger, writeSettings } from '../../main/mcp/test-support.js';
import { openSecretStore, type SecretStore } from '../../main/secrets/index.js';
import {
  approveInBrowser,
  clientMetadataUrl,
  startOAuthMcpServer,
  type OAuthMcpServer,
  type OAuthMcpServerOptions,
} from './oauth-mcp-server.js';

let dataDir: string;
let secrets: SecretStore;
let remote: OAuthMcpServer;
let manager: McpManager;

async function startAll(entry: Record<string, unknown> = {}, serverOptions: OAuthMcpServerOptions = {}) {
  remote = await startOAuthMcpServer(serverOptions);
  await writeSettings(dataDir, { remote: { type: 'streamableHttp', url: remote.url, ...entry } });
  manager = newManager();
  await manager.start();
  return manager.waitUntilSettled();
}

function newManager(): McpManager {
  return new McpManager({
    dataDir,
    logger: silentLogger,
    watch: false,
    restartPolicy: { maxRestarts: 0 },
    oauth: new OAuthCredentials(async () => secrets),
  });
}

beforeEach(async () => {
  dataDir = await makeTempDir();
  // The file store: what a machine without a keychain uses, and one the test can read back.
  secrets = (await openSecretStore({ dataDir, mode: 'file' })).store;
});

afterEach(async () => {
  await manager?.stop();
  await remote?.close();
  await removeTempDir(dataDir);
});

describe('OAuth sign-in to a remote MCP server', () => {
  it('needs sign-in until signed in, then connects with tokens kept only in the secret store', async () => {
    const [before] = await startAll();
    expect(before).toMatchObject({ state: 'needs-sign-in', message: expect.stringContaining('mcp login remote') });
    expect(remote.authorizationServer.registrations).toHaveLength(0); // a connection never registers by itself

    let authorizationUrl: URL | undefined;
    const after = await manager.signIn('remote', {
      openAuthorizationUrl: async (url) => {
        authorizationUrl = url;
        await approveInBrowser(url);
      },
    });
    expect(after).toMatchObject({ state: 'connected', toolCount: 1, signedIn: true });
    expect(manager.listTools('remote').map((tool) => tool.name)).toEqual(['whoami']);

    // Dynamic registration as a public client, the code flow with S256 PKCE, the resource indicator (RFC 8707).
    const [registration] = remote.authorizationServer.registrations;
    expect(registration).toMatchObject({ client_name: 'Switchyard', token_endpoint_auth_method: 'none' });
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl?.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(remote.authorizationServer.authorizations[0]?.resource?.href).toBe(remote.url);

    const stored = JSON.parse((await secrets.get(oauthAccountFor('remote'))) ?? '{}');
    expect(stored).toMatchObject({ url: remote.url, client: { client_id: registration?.client_id } });
    const accessToken: string = stored.tokens.access_token;
    expect(remote.authorizationServer.accessTokens.has(accessToken)).toBe(true);
    expect(await readFile(path.join(dataDir, 'secrets.json'), 'utf8')).toContain(accessToken);
    expect(await readFile(manager.settingsPath, 'utf8')).not.toContain(accessToken);
    expect(manager.logs('remote').join('\n')).not.toContain(accessToken);

    const result = await manager.callTool('remote', 'whoami', {});
    expect(toolResultText(result)).toBe(`client ${registration?.client_id}`);
  });

  it('refreshes an expired access token on 401, and needs sign-in again when the refresh token is revoked', async () => {
    await startAll();
    await manager.signIn('remote', { openAuthorizationUrl: approveInBrowser });

    remote.expireAccessTokens();
    const refreshed = await manager.callTool('remote', 'whoami', {});
    expect(toolResultText(refreshed)).toMatch(/^client /);
    expect(remote.authorizationServer.refreshes).toBe(1);
    const stored = JSON.parse((await secrets.get(oauthAccountFor('remote'))) ?? '{}');
    expect(remote.authorizationServer.accessTokens.get(stored.tokens.access_token)?.expired).toBe(false);

    remote.expireAccessTokens();
    remote.revokeRefreshTokens();
    const lost = await manager.callTool('remote', 'whoami', {});
    expect(lost.isError).toBe(true);
    expect(manager.server('remote')).toMatchObject({ state: 'needs-sign-in', toolCount: 0 });
    // A restart (the app starting again) finds the same: the stored tokens no longer do.
    expect(await manager.restart('remote').then(() => manager.waitUntilSettled())).toEqual([
      expect.objectContaining({ state: 'needs-sign-in' }),
    ]);
  });

  it('uses the client ID metadata document the entry names when the server supports them', async () => {
    await startAll({ oauth: { clientMetadataUrl } }, { clientIdMetadataDocuments: true });
    const after = await manager.signIn('remote', { openAuthorizationUrl: approveInBrowser });
    expect(after).toMatchObject({ state: 'connected' });
    expect(remote.authorizationServer.registrations).toHaveLength(0);
    const result = await manager.callTool('remote', 'whoami', {});
    expect(toolResultText(result)).toBe(`client ${clientMetadataUrl}`);
  });

  it('signs out: the stored sign-in is deleted and the server needs sign-in again', async () => {
    await startAll();
    await manager.signIn('remote', { openAuthorizationUrl: approveInBrowser });
    expect(await manager.signOut('remote')).toBe(true);
    await manager.waitUntilSettled();
    expect(manager.server('remote')).toMatchObject({ state: 'needs-sign-in' });
    expect(await secrets.get(oauthAccountFor('remote'))).toBeNull();
  });

  it('reports a sign-in the authorization server refused, and keeps needing sign-in', async () => {
    await startAll();
    const refused = manager.signIn('remote', {
      openAuthorizationUrl: async (url) => {
        const callback = new URL(url.searchParams.get('redirect_uri') ?? '');
        callback.searchParams.set('state', url.searchParams.get('state') ?? '');
        callback.searchParams.set('error', 'access_denied');
        await fetch(callback);
      },
    });
    await expect(refused).rejects.toThrow(/Sign-in failed: the authorization server answered access_denied/);
    expect(manager.server('remote')).toMatchObject({
      state: 'needs-sign-in',
      message: expect.stringMatching(/access_denied/),
    });
  });
});

describe('step-up authorization (403 insufficient_scope)', () => {
  it('a call refused for want of scope needs sign-in with "more access", and the next sign-in asks for the union', async () => {
    await startAll({}, { scopes: ['files:read'], toolScopes: { publish: ['files:write'] } });
    await manager.signIn('remote', { openAuthorizationUrl: approveInBrowser });
    expect(remote.authorizationServer.authorizations.map((grant) => grant.scopes)).toEqual([['files:read']]);

    const refused = await manager.callTool('remote', 'publish', {});
    expect(refused.isError).toBe(true);
    const moreAccess = /Server "remote" needs more access \(scope "files:read files:write"\)/;
    expect(toolResultText(refused)).toMatch(moreAccess);
    expect(manager.server('remote')).toMatchObject({
      state: 'needs-sign-in',
      message: expect.stringMatching(moreAccess),
    });
    expect(remote.authorizationServer.authorizations).toHaveLength(1); // a call never opens a browser

    await manager.signIn('remote', { openAuthorizationUrl: approveInBrowser });
    expect(remote.authorizationServer.authorizations.at(-1)?.scopes).toEqual(['files:read', 'files:write']);
    expect(toolResultText(await manager.callTool('remote', 'publish', {}))).toBe('publish done');
  });

  it("the UI's sign-in takes one authorization, and leaves the wider scope for the next", async () => {
    await startAll({}, { insatiable: true });
    const signIn = manager.signIn('remote', { openAuthorizationUrl: approveInBrowser });
    await expect(signIn).rejects.toThrow(/Sign-in failed: the server needs more access \(scope "more-1"\)/);
    expect(remote.authorizationServer.authorizations).toHaveLength(1);
    expect(manager.server('remote')).toMatchObject({
      state: 'needs-sign-in',
      message: expect.stringMatching(/more access/),
    });
    const stored = JSON.parse((await secrets.get(oauthAccountFor('remote'))) ?? '{}');
    expect(stored.scope).toBe('more-1');
  });
});

describe('a remote server that answers 401 without OAuth', () => {
  it('is an error that asks for credentials in headers, not a sign-in', async () => {
    const plain = createServer((_request, response) => response.writeHead(401).end());
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/mcp`;
    await writeSettings(dataDir, { plain: { type: 'streamableHttp', url } });
    manager = newManager();
    try {
      await manager.start();
      expect(await manager.waitUntilSettled()).toEqual([
        expect.objectContaining({ state: 'error', message: expect.stringMatching(/answered 401 .*"headers"/) }),
      ]);
    } finally {
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    }
  });
});
