// `switchyard mcp login|logout|list` against an OAuth-protected server: the link printed and "opened" (BROWSER
// is a script that approves, as a person would), the loopback redirect waited for, the tokens stored.

import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerMcpCommands } from '../../main/cli/mcp-commands.js';
import { noApp, runCommands } from '../../main/cli/test-support.js';
import { makeTempDir, removeTempDir, writeSettings } from '../../main/mcp/test-support.js';
import { startOAuthMcpServer, type OAuthMcpServer } from './oauth-mcp-server.js';

let dataDir: string;
let remote: OAuthMcpServer;
let out: string[];
let err: string[];
const savedEnv = { BROWSER: process.env.BROWSER, SWITCHYARD_SECRET_STORE: process.env.SWITCHYARD_SECRET_STORE };

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
