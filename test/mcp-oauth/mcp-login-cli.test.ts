// `switchyard mcp login|logout|list` against an OAuth-protected server: the link printed and "opened" (BROWSER
// is a script that approves, as a person would), the loopback redirect waited for, the tokens stored. Login listens
// to the server: the 401 challenge's metadata location and scope, success only once the new token works, step-up
// to a wider scope (bounded), and clients registered by hand with the token endpoint authentication the metadata
// names.

import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerMcpCommands } from '../../main/cli/mcp-commands.js';
import { noApp, runCommands } from '../../main/cli/test-support.js';
import { makeTempDir, removeTempDir, writeSettings } from '../../main/mcp/test-support.js';
import {
  startOAuthMcpServer,
  type OAuthMcpServer,
  type OAuthMcpServerOptions,
  type TokenEndpointAuthMethod,
} from './oauth-mcp-server.js';

let dataDir: string;
let remote: OAuthMcpServer;
let out: string[];
let err: string[];
const savedEnv = {
  BROWSER: process.env.BROWSER,
  SWITCHYARD_SECRET_STORE: process.env.SWITCHYARD_SECRET_STORE,
  PRE_CLIENT_SECRET: process.env.PRE_CLIENT_SECRET,
};

// What the browser does on the authorization page: follows its redirect back to the CLI's loopback listener.
const approvingBrowser = `#!${process.execPath}
const page = await fetch(process.argv[2], { redirect: 'manual' });
await fetch(page.headers.get('location'));
`;

beforeEach(async () => {
  dataDir = await makeTempDir();
  remote = await startOAuthMcpServer();
  await writeSettings(dataDir, { remote: { url: remote.url } });
  const browser = path.join(dataDir, 'approving-browser.mjs');
  await writeFile(browser, approvingBrowser);
  await chmod(browser, 0o755);
  process.env.BROWSER = browser;
  process.env.SWITCHYARD_SECRET_STORE = 'file';
  out = [];
  err = [];
});

afterEach(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await remote.close();
  await removeTempDir(dataDir);
});

/** Replaces the default server with one that asks for more, and points the entry at it. */
async function useServer(options: OAuthMcpServerOptions): Promise<void> {
  await remote.close();
  remote = await startOAuthMcpServer(options);
  await writeSettings(dataDir, { remote: { url: remote.url } });
}

async function run(...args: string[]): Promise<void> {
  const openApp = noApp('the mcp commands need no app');
  await runCommands(registerMcpCommands, { out, err }, openApp, ['mcp', ...args, '--data-dir', dataDir]);
}

describe('switchyard mcp login', () => {
  it('list shows needs-sign-in; login signs in through the browser; list then connects; logout forgets', async () => {
    await run('list');
    expect(out.join('\n')).toMatch(/remote\s+needs-sign-in\s+-\s+streamableHttp/);
    expect(out.join('\n')).toContain('switchyard mcp login remote');

    out.length = 0;
    await run('login', 'remote');
    expect(err.join('\n')).toMatch(
      /open this link in a browser on this machine:\n {2}http:\/\/127\.0\.0\.1:\d+\/authorize\?/,
    );
    expect(out).toEqual(['Signed in to remote (connected; 1 tools).']);
    const secretsFile = await readFile(path.join(dataDir, 'secrets.json'), 'utf8');
    expect(secretsFile).toContain('mcp-oauth:remote');
    expect(await readFile(path.join(dataDir, 'mcp_settings.json'), 'utf8')).not.toContain('access-');

    out.length = 0;
    await run('list');
    expect(out.join('\n')).toMatch(/remote\s+connected\s+1\s+streamableHttp/);

    out.length = 0;
    await run('logout', 'remote');
    expect(out).toEqual(['Signed out of remote.']);
    out.length = 0;
    await run('list');
    expect(out.join('\n')).toMatch(/remote\s+needs-sign-in/);
  });

  it('login names the servers there are when the name is unknown', async () => {
    await expect(run('login', 'nope')).rejects.toThrow(/No MCP server "nope" .* Servers there: remote\./);
  });
});

describe('switchyard mcp login listens to the server', () => {
  it('finds the protected-resource metadata named only in the 401 challenge', async () => {
    await useServer({ resourceMetadataOnlyInChallenge: true });
    await run('login', 'remote');
    expect(out).toEqual(['Signed in to remote (connected; 1 tools).']);
    expect(remote.resourceMetadataFetches()).toBeGreaterThan(0);
    // The resource indicator comes from that metadata: without it the SDK sends none.
    expect(remote.authorizationServer.authorizations[0]?.resource?.href).toBe(remote.url);
  });

  it('asks for the scope the challenge names, and the token it gets works', async () => {
    await useServer({ scopes: ['files:read'] });
    await run('login', 'remote');
    expect(remote.authorizationServer.authorizations.map((grant) => grant.scopes)).toEqual([['files:read']]);
    expect(out).toEqual(['Signed in to remote (connected; 1 tools).']);
  });

  it('fails when the new token is refused, after one authorization for a scope it already asked for', async () => {
    await useServer({ scopes: ['files:read'], withheldScopes: ['files:read'] });
    await expect(run('login', 'remote')).rejects.toThrow(
      /Sign-in failed: the server still refuses: it needs scope "files:read", which the authorization server did not grant/,
    );
    expect(remote.authorizationServer.authorizations).toHaveLength(1);
    expect(out).toEqual([]);
  });

  it('signs in again for a wider scope, at most three times in all', async () => {
    await useServer({ insatiable: true });
    await expect(run('login', 'remote')).rejects.toThrow(/Sign-in failed: the server needs more access \(scope "/);
    const asked = remote.authorizationServer.authorizations.map((grant) => grant.scopes);
    expect(asked).toEqual([[], ['more-1'], ['more-1', 'more-2']]);
  });

  it('a call refused for want of scope makes the next login ask for the union, and the call then works', async () => {
    await useServer({ scopes: ['files:read'], toolScopes: { publish: ['files:write'] } });
    await run('login', 'remote');
    await expect(run('call', 'remote', 'publish')).rejects.toThrow(/returned an error/);
    expect(out.join('\n')).toContain('Server "remote" needs more access (scope "files:read files:write")');

    out.length = 0;
    await run('login', 'remote');
    expect(remote.authorizationServer.authorizations.at(-1)?.scopes).toEqual(['files:read', 'files:write']);
    await run('call', 'remote', 'publish');
    expect(out.join('\n')).toContain('publish done');
  });
});

describe('switchyard mcp login --client-id', () => {
  const secret = 'pre-registered-secret-value';

  it.each<TokenEndpointAuthMethod>(['client_secret_basic', 'client_secret_post'])(
    'signs in with a client registered by hand, authenticated by %s as the metadata says; the secret only in the secret store',
    async (authMethod) => {
      await useServer({ preRegisteredClient: { clientId: 'pre-client', clientSecret: secret, authMethod } });
      process.env.PRE_CLIENT_SECRET = secret;
      await run('login', 'remote', '--client-id', 'pre-client', '--client-secret-env', 'PRE_CLIENT_SECRET');
      expect(out).toEqual(['Signed in to remote (connected; 1 tools).']);
      expect(remote.authorizationServer.registrations).toHaveLength(0);
      expect(remote.authorizationServer.tokenRequestAuthentications).toEqual([authMethod]);

      const settings = JSON.parse(await readFile(path.join(dataDir, 'mcp_settings.json'), 'utf8'));
      expect(settings.mcpServers.remote.oauth).toEqual({ clientId: 'pre-client' });
      const secrets = await readFile(path.join(dataDir, 'secrets.json'), 'utf8');
      expect(secrets).toContain('mcp-oauth-client-secret:remote');
      expect(JSON.stringify(settings)).not.toContain(secret);
      expect([...out, ...err].join('\n')).not.toContain(secret);

      // A later login and the connections take the stored client without the flags.
      out.length = 0;
      await run('call', 'remote', 'whoami');
      expect(out.join('\n')).toContain('client pre-client');
    },
  );

  it('signs in with a public client registered by hand (no secret: none)', async () => {
    await useServer({ preRegisteredClient: { clientId: 'public-client', authMethod: 'none' } });
    await run('login', 'remote', '--client-id', 'public-client');
    expect(out).toEqual(['Signed in to remote (connected; 1 tools).']);
    expect(remote.authorizationServer.tokenRequestAuthentications).toEqual(['none']);
  });

  it('refuses a secret variable that is not set, and a secret without a client id', async () => {
    delete process.env.PRE_CLIENT_SECRET;
    await expect(
      run('login', 'remote', '--client-id', 'pre-client', '--client-secret-env', 'PRE_CLIENT_SECRET'),
    ).rejects.toThrow(/Environment variable PRE_CLIENT_SECRET is not set/);
    await expect(run('login', 'remote', '--client-secret-env', 'PRE_CLIENT_SECRET')).rejects.toThrow(
      /--client-secret-env needs --client-id/,
    );
  });
});
