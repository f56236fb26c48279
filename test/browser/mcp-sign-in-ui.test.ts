// The MCP screen's Sign in for a remote server that wants OAuth, against the real `switchyard serve` and an
// OAuth-protected MCP server on 127.0.0.1: "needs sign-in" first; Sign in opens the sign-in page in a new
// browser tab, which comes back to the app's loopback listener; the server then connects; Sign out undoes it.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthMcpServer, type OAuthMcpServer } from '../mcp-oauth/oauth-mcp-server.js';
import { startUiWithRemote } from './oauth-ui.js';
import { closeAfterTests, type UiHarness } from './ui-harness.js';

let remote: OAuthMcpServer;
let ui: UiHarness;

beforeAll(async () => {
  remote = await startOAuthMcpServer();
  ui = await startUiWithRemote(remote);
}, 120_000);

closeAfterTests(() => ui);
afterAll(() => remote?.close());

describe('signing in to a remote MCP server', { timeout: 60_000 }, () => {
  it('shows needs sign-in, signs in through a browser tab, connects, and signs out', async () => {
    const { page } = await ui.open('MCP');
    const listed = page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: /remote/ });
    await listed.getByRole('img', { name: 'needs-sign-in' }).waitFor({ timeout: 30_000 });
    await listed.click();
    const detail = page.getByRole('region', { name: 'Server remote' });
    await detail.getByText('needs sign-in').first().waitFor();
    await detail
      .getByRole('status')
      .filter({ hasText: /Server "remote" needs sign-in/ })
      .waitFor();
    await ui.screenshot(page, 'mcp-needs-sign-in-light');

    const tab = page.context().waitForEvent('page');
    await detail.getByRole('button', { name: 'Sign in' }).click();
    const signInPage = await tab;
    // The authorization server approves at once and sends the tab back to the app's loopback listener.
    await signInPage.getByText('Signed in to remote. You can close this tab').waitFor();
    await listed.getByRole('img', { name: 'connected' }).waitFor({ timeout: 30_000 });
    await detail.getByText('connected · 1 tool').waitFor();
    expect(remote.authorizationServer.registrations).toHaveLength(1);
    const settings = fs.readFileSync(path.join(ui.dataDir, 'mcp_settings.json'), 'utf8');
    expect(settings).not.toMatch(/access-|refresh-/);

    await detail.getByRole('button', { name: 'Sign out' }).click();
    await listed.getByRole('img', { name: 'needs-sign-in' }).waitFor({ timeout: 30_000 });
    await detail.getByRole('button', { name: 'Sign in' }).waitFor();
  });
});
