// Install links in the browser, on the real `switchyard serve`: /ui/mcp/install?… opens the same confirmation as
// the desktop app's switchyard://mcp/install?…. An inline entry shows what it runs and which values go to the
// secret store, and is written only on confirm (then listed, connected: server-everything offline through npx);
// cancel writes nothing; a malicious or malformed link shows why and writes nothing; a registry name against a local
// registry (another than the app's: a warning) opens the install form. Light and dark, 720 and 1280 px, axe.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingVersion, readFixture } from '../../main/mcp/registry/test-support.js';
import { nodeOnlyPath, startRegistryServer, type RegistryServerHandle } from '../support/registry-server.js';
import { expectLooksRight } from './a11y.js';
import { closeAfterTests, hasFocus, startUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;
let registry: RegistryServerHandle;
let binFolder: string;
const secretValue = 'ghp_link-secret-0123456789';
const everything = {
  command: 'npx',
  args: ['-y', `@modelcontextprotocol/server-everything@${everythingVersion}`],
  env: { GITHUB_TOKEN: secretValue, LOG_LEVEL: 'debug' },
};

beforeAll(async () => {
  registry = await startRegistryServer([readFixture('valid/with-package.json')]);
  binFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-link-bin-'));
  // Servers start with node, npx and sh only, npm offline, no login shell to widen the PATH.
  ui = await startUi({
    env: { PATH: nodeOnlyPath(path.join(binFolder, 'bin')), SHELL: '', npm_config_offline: 'true' },
  });
}, 120_000);

closeAfterTests(() => ui);
afterAll(async () => {
  await registry.close();
  fs.rmSync(binFolder, { recursive: true, force: true });
});

const settingsFile = () => path.join(ui.dataDir, 'mcp_settings.json');
const onDisk = (): Record<string, Record<string, unknown>> =>
  fs.existsSync(settingsFile())
    ? ((JSON.parse(fs.readFileSync(settingsFile(), 'utf8')) as { mcpServers?: Record<string, Record<string, unknown>> })
        .mcpServers ?? {})
    : {};

const configQuery = (name: string, entry: unknown) =>
  `name=${encodeURIComponent(name)}&config=${Buffer.from(JSON.stringify(entry)).toString('base64url')}`;

/** Signs in (the printed link), then opens the link's path as a person's browser would. */
async function openLink(query: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const { page } = await ui.open('MCP', { colorScheme });
  await page.goto(`${new URL(ui.uiUrl).origin}/ui/mcp/install?${query}`);
  return page;
}

describe('install links', { timeout: 90_000 }, () => {
  it('an inline entry: everything it writes is shown, nothing is saved before Add, then it is listed connected', async () => {
    const page = await openLink(configQuery('everything', everything));
    const dialog = page.getByRole('dialog', { name: 'Install from a link' });
    await dialog
      .getByText('A link asks to add the MCP server “everything”. Nothing is saved until you choose Add.', {
        exact: false,
      })
      .waitFor();
    expect(await dialog.getByLabel('Name').inputValue()).toBe('everything');
    const shown = dialog.getByRole('list', { name: 'What will run' });
    await shown.getByText(`npx -y @modelcontextprotocol/server-everything@${everythingVersion}`).waitFor();
    const values = dialog.getByRole('list', { name: 'Values it sets' }).getByRole('listitem');
    expect(await values.allTextContents()).toEqual([
      'GITHUB_TOKEN — secret: its value goes to the secret store, not the settings file',
      'LOG_LEVEL',
    ]);
    expect(await dialog.textContent()).not.toContain(secretValue);
    expect(await hasFocus(dialog.getByRole('button', { name: 'Cancel' }))).toBe(true);
    expect(onDisk()).toEqual({});
    await ui.screenshot(page, 'mcp-install-link-light');

    await dialog.getByRole('button', { name: 'Add and start' }).click();
    await dialog.waitFor({ state: 'detached' });
    const listed = page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: /everything/ });
    await listed.getByRole('img', { name: 'connected' }).waitFor({ timeout: 45_000 });
    const written = onDisk().everything as { env: Record<string, string> };
    expect(written.env.LOG_LEVEL).toBe('debug');
    expect(written.env.GITHUB_TOKEN).toMatch(/^\$\{secret:[^}]+\}$/);
    expect(fs.readFileSync(settingsFile(), 'utf8')).not.toContain(secretValue);
  });

  it('cancel writes nothing; a name that exists is offered under a free one', async () => {
    const before = fs.readFileSync(settingsFile(), 'utf8');
    const page = await openLink(configQuery('everything', { command: 'node', args: ['server.js'] }));
    const dialog = page.getByRole('dialog', { name: 'Install from a link' });
    await dialog
      .getByRole('status')
      .filter({ hasText: 'A server named “everything” exists already; this one is added under another name.' })
      .waitFor();
    expect(await dialog.getByLabel('Name').inputValue()).toBe('everything-2');
    await dialog.getByRole('list', { name: 'What will run' }).getByText('node server.js').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).hash).toBe('#/mcp');
    expect(fs.readFileSync(settingsFile(), 'utf8')).toBe(before);
  });

  it('a malicious or malformed link says why, and writes nothing', async () => {
    const before = fs.readFileSync(settingsFile(), 'utf8');
    const cases: [string, string][] = [
      [
        configQuery('helper', { command: 'npx; rm -rf ~', args: [] }),
        'This link cannot be installed: The link’s command "npx; rm -rf ~" holds the shell character ";"',
      ],
      ['name=helper&config=not*base64', 'This link cannot be installed: The link’s config is not base64url text.'],
      [
        `${configQuery('helper', { command: 'node' })}&autoAccept=1`,
        'This link cannot be installed: The link has parameters Switchyard does not know: autoAccept',
      ],
      [
        configQuery('helper', { command: 'node', env: { TOKEN: '${secret:everything.GITHUB_TOKEN}' } }),
        'This link cannot be installed: The link’s config refers to a secret or environment variable',
      ],
      [`name=x&config=${'A'.repeat(9_000)}`, 'This link cannot be installed: The link is'],
    ];
    for (const [query, message] of cases) {
      const page = await openLink(query);
      const dialog = page.getByRole('dialog', { name: 'Install from a link' });
      await dialog.getByRole('alert').filter({ hasText: message }).waitFor();
      await dialog.getByText('Nothing was saved.').waitFor();
      expect(await dialog.getByRole('button', { name: 'Add and start' }).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Close' }).first().click();
    }
    expect(fs.readFileSync(settingsFile(), 'utf8')).toBe(before);
  });

  it('a registry name from another registry: a warning, the install form, and the entry once confirmed', async () => {
    const name = 'io.github.user/local-weather';
    const page = await openLink(`name=${encodeURIComponent(name)}&registry=${encodeURIComponent(registry.baseUrl)}`);
    const dialog = page.getByRole('dialog', { name: `Install ${name}` });
    await dialog
      .getByRole('alert')
      .filter({ hasText: `This link installs from ${registry.baseUrl}, not from the registry this app uses.` })
      .waitFor();
    await dialog.getByLabel('API_KEY (required)').fill('wk-link-secret-42');
    await dialog.getByRole('button', { name: 'Review what it runs' }).click();
    await dialog.getByRole('list', { name: 'What will run' }).getByText('With API_KEY set.').waitFor();
    expect(onDisk()['local-weather']).toBeUndefined();
    await dialog.getByRole('button', { name: 'Install and start' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(onDisk()['local-weather']).toMatchObject({
      command: 'npx',
      source: { registry: registry.baseUrl, name, version: '1.0.0' },
      env: { API_KEY: expect.stringMatching(/^\$\{secret:[^}]+\}$/) },
    });
    expect(fs.readFileSync(settingsFile(), 'utf8')).not.toContain('wk-link-secret-42');
  });

  for (const [width, colorScheme] of [
    [720, 'dark'],
    [720, 'light'],
    [1280, 'light'],
    [1280, 'dark'],
  ] as const) {
    it(`the confirmation fits a ${width} px window (${colorScheme}), and an error too`, async () => {
      const page = await openLink(configQuery('fits', everything), colorScheme);
      await page.setViewportSize({ width, height: 860 });
      const dialog = page.getByRole('dialog', { name: 'Install from a link' });
      await dialog.getByRole('list', { name: 'What will run' }).waitFor();
      await ui.screenshot(page, `mcp-install-link-${width}-${colorScheme}`);
      await expectLooksRight(page, [
        dialog.getByLabel('Name'),
        dialog.getByRole('list', { name: 'Values it sets' }),
        dialog.getByRole('button', { name: 'Add and start' }),
      ]);
      const refused = await openLink(configQuery('x', { command: 'a|b' }), colorScheme);
      await refused.setViewportSize({ width, height: 860 });
      const alert = refused.getByRole('dialog', { name: 'Install from a link' }).getByRole('alert');
      await alert.waitFor();
      await expectLooksRight(refused, [alert]);
    });
  }
});
