// The remote-server form's OAuth client fields, against the real `switchyard serve` and an OAuth-protected MCP
// server without dynamic registration: the client id goes into the entry, the secret (a password field) into the
// secret store and never back to the page, which only says that one is set; Sign in then uses that client. The
// form is checked in light and dark, 720 and 1280 wide, with an axe audit.

import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthMcpServer, type OAuthMcpServer } from '../mcp-oauth/oauth-mcp-server.js';
import { expectLooksRight } from './a11y.js';
import { startUiWithRemote } from './oauth-ui.js';
import { closeAfterTests, type UiHarness } from './ui-harness.js';

const clientSecret = 'form-typed-client-secret';
let remote: OAuthMcpServer;
let ui: UiHarness;

beforeAll(async () => {
  remote = await startOAuthMcpServer({
    preRegisteredClient: { clientId: 'ui-client', clientSecret, authMethod: 'client_secret_post' },
  });
  ui = await startUiWithRemote(remote);
}, 120_000);

closeAfterTests(() => ui);
afterAll(() => remote?.close());

async function openForm(page: Page) {
  const listed = page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: /remote/ });
  await listed.waitFor({ timeout: 30_000 });
  await listed.click();
  await page.getByRole('region', { name: 'Server remote' }).getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('dialog', { name: 'Edit server remote' });
  return {
    form,
    clientId: form.getByRole('textbox', { name: 'OAuth client ID' }),
    secret: form.getByLabel('OAuth client secret'),
  };
}

describe('the OAuth client of a remote server, in the form', { timeout: 90_000 }, () => {
  it('stores the id in the entry and the secret in the secret store, shows only that one is set, and signs in with it', async () => {
    const { page, bridgeAnswers } = await ui.open('MCP');
    const { form, clientId, secret } = await openForm(page);
    expect(await secret.getAttribute('type')).toBe('password');
    await clientId.fill('ui-client');
    await secret.fill(clientSecret);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    const settings = JSON.parse(fs.readFileSync(path.join(ui.dataDir, 'mcp_settings.json'), 'utf8'));
    expect(settings.mcpServers.remote).toEqual({
      type: 'streamableHttp',
      url: remote.url,
      oauth: { clientId: 'ui-client' },
    });
    const secrets = fs.readFileSync(path.join(ui.dataDir, 'secrets.json'), 'utf8');
    expect(secrets).toContain('mcp-oauth-client-secret:remote');

    const again = await openForm(page);
    await again.form.getByText('A secret is set (in the keychain); type a new one to replace it.').waitFor();
    expect(await again.secret.inputValue()).toBe('');
    await again.form.getByRole('button', { name: 'Cancel' }).click();

    const tab = page.context().waitForEvent('page');
    const detail = page.getByRole('region', { name: 'Server remote' });
    await detail.getByRole('button', { name: 'Sign in' }).click();
    await (await tab).getByText('Signed in to remote. You can close this tab').waitFor();
    await detail.getByText('connected · 1 tool').waitFor({ timeout: 30_000 });
    expect(remote.authorizationServer.registrations).toHaveLength(0);
    expect(remote.authorizationServer.tokenRequestAuthentications).toEqual(['client_secret_post']);
    expect(bridgeAnswers.join('\n')).not.toContain(clientSecret);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [720, 1280]) {
      it(`the form's client fields look right (${colorScheme}, ${width} px)`, async () => {
        const { page } = await ui.open('MCP', { colorScheme });
        await page.setViewportSize({ width, height: 860 });
        const { clientId, secret } = await openForm(page);
        await clientId.waitFor();
        await secret.scrollIntoViewIfNeeded();
        await ui.screenshot(page, `mcp-oauth-client-form-${colorScheme}-${width}`);
        await expectLooksRight(page, [clientId, secret]);
      });
    }
  }
});
