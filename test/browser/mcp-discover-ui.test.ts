// The MCP screen's Discover view in the browser, against the real `switchyard serve` and a local registry speaking
// the registry's real API (published example documents, validated against the published schema): search → the
// install form → the exact command before the confirm button → the entry in the list, connected (server-everything,
// offline through npx); a missing uvx shown before saving with nothing written; "update available" and the update's
// change; light and dark, 720 and 1280 px, axe.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServerJson, everythingVersion, readFixture } from '../../main/mcp/registry/test-support.js';
import { nodeOnlyPath, startRegistryServer, type RegistryServerHandle } from '../support/registry-server.js';
import { expectLooksRight } from './a11y.js';
import { closeAfterTests, expectBothThemesLookRight, startUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;
let registry: RegistryServerHandle;
let binFolder: string;
const everything = 'io.github.modelcontextprotocol/everything';

beforeAll(async () => {
  registry = await startRegistryServer([
    everythingServerJson(),
    readFixture('valid/with-package.json'),
    readFixture('valid/weather-pypi.json'),
    readFixture('valid/with-remote.json'),
  ]);
  binFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-discover-bin-'));
  // Servers start with node, npx and sh only (no uvx anywhere), npm offline, no login shell to widen the PATH.
  ui = await startUi({
    env: { PATH: nodeOnlyPath(path.join(binFolder, 'bin')), SHELL: '', npm_config_offline: 'true' },
  });
  await ui.invoke('mcp:set-registry-url', { url: registry.baseUrl });
}, 120_000);

closeAfterTests(() => ui);
afterAll(async () => {
  await registry.close();
  fs.rmSync(binFolder, { recursive: true, force: true });
});

const onDisk = () =>
  (JSON.parse(fs.readFileSync(path.join(ui.dataDir, 'mcp_settings.json'), 'utf8')) as { mcpServers?: object })
    .mcpServers ?? {};

async function discover(page: Page, text: string) {
  await page.getByRole('button', { name: 'Discover' }).click();
  const view = page.getByRole('region', { name: 'Discover servers' });
  await view.getByLabel('Search the MCP Registry').fill(text);
  await view.getByRole('button', { name: 'Search', exact: true }).click();
  await view.getByRole('status').filter({ hasText: registry.baseUrl }).waitFor();
  return view;
}

describe('Discover', { timeout: 90_000 }, () => {
  it('searches, installs server-everything from its form after showing the command, and lists it connected', async () => {
    const { page } = await ui.open('MCP');
    const view = await discover(page, 'everything');
    const result = view.getByRole('list', { name: 'Registry servers' }).getByRole('listitem');
    await result.getByText('Runs with npx (Node.js)').waitFor();
    expect(await result.getByText('Needs secrets').count()).toBe(0);
    await result.getByRole('button', { name: `Install ${everything}` }).click();

    const dialog = page.getByRole('dialog', { name: `Install ${everything}` });
    await dialog.getByLabel('EVERYTHING_NOTE').fill('; rm -rf ~');
    const install = dialog.getByRole('button', { name: 'Install and start' });
    expect(await install.isDisabled()).toBe(true); // not before the person has seen what runs
    await dialog.getByRole('button', { name: 'Review what it runs' }).click();
    const shown = dialog.getByRole('list', { name: 'What will run' });
    await shown.getByText(`npx -y @modelcontextprotocol/server-everything@${everythingVersion}`).waitFor();
    await shown.getByText('With EVERYTHING_NOTE set.').waitFor();
    expect(onDisk()).toEqual({});
    await ui.screenshot(page, 'mcp-discover-review-light');
    await install.click();
    await dialog.waitFor({ state: 'detached' });

    const listed = page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: /everything/ });
    await listed.getByRole('img', { name: 'connected' }).waitFor({ timeout: 45_000 });
    expect(onDisk()).toEqual({
      everything: {
        command: 'npx',
        args: ['-y', `@modelcontextprotocol/server-everything@${everythingVersion}`],
        env: { EVERYTHING_NOTE: '; rm -rf ~' },
        source: { registry: registry.baseUrl, name: everything, version: everythingVersion },
      },
    });
  });

  it('a Python server: the secret is a password field, and the missing uvx is shown before anything is saved', async () => {
    const { page } = await ui.open('MCP');
    const view = await discover(page, 'weather-mcp');
    const result = view.getByRole('list', { name: 'Registry servers' }).getByRole('listitem');
    await result.getByText('Needs secrets').waitFor();
    await result.getByRole('button', { name: 'Install io.github.example/weather-mcp' }).click();
    const dialog = page.getByRole('dialog', { name: 'Install io.github.example/weather-mcp' });
    const key = dialog.getByLabel('WEATHER_API_KEY (required)');
    expect(await key.getAttribute('type')).toBe('password');
    await key.fill('wk-secret-value');
    await dialog.getByRole('button', { name: 'Review what it runs' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'uvx is not installed here' }).waitFor();
    await dialog.getByText('--from weather-mcp-server==0.5.0 weather-mcp-server').waitFor();
    expect(await dialog.getByRole('button', { name: 'Install and start' }).isDisabled()).toBe(true);
    expect(await dialog.textContent()).not.toContain('wk-secret-value');
    expect(Object.keys(onDisk())).toEqual(['everything']);
  });

  it('shows "update available" for an installed server, and the change before the update is applied', async () => {
    const next = everythingServerJson(everythingVersion, '2099.1.0') as { packages: Record<string, unknown>[] };
    next.packages[0]!.environmentVariables = [{ name: 'EVERYTHING_NOTE' }, { name: 'LOG_LEVEL', default: 'info' }];
    registry.publish(next);
    const { page } = await ui.open('MCP');
    const view = await discover(page, 'everything');
    await view.getByText(`Update available: ${everythingVersion} → 2099.1.0`).waitFor();
    await view.getByRole('button', { name: `Update ${everything}` }).click();
    const dialog = page.getByRole('dialog', { name: `Update ${everything}` });
    await dialog.getByText('The installed entry’s value is kept unless you type a new one.').first().waitFor();
    await dialog.getByRole('button', { name: 'Review what it runs' }).click();
    const changes = dialog.getByRole('list', { name: 'What the update changes' });
    await changes.getByText(`version: ${everythingVersion} → 2099.1.0`).waitFor();
    await changes.getByText('adds LOG_LEVEL').waitFor();
    await dialog.getByRole('button', { name: 'Update and start' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => (onDisk() as Record<string, { source?: { version?: string } }>).everything?.source?.version)
      .toBe('2099.1.0');
    expect((onDisk() as Record<string, { env?: object }>).everything?.env).toEqual({
      EVERYTHING_NOTE: '; rm -rf ~',
      LOG_LEVEL: 'info',
    });
  });

  it('looks right in light and dark, with search results', async () => {
    await expectBothThemesLookRight(ui, 'MCP', 'mcp-discover', async (page) => {
      const view = await discover(page, 'weather');
      const results = view.getByRole('list', { name: 'Registry servers' });
      await results.getByRole('listitem').nth(2).waitFor();
      return [view.getByLabel('Search the MCP Registry'), results.getByRole('listitem').first()];
    });
  });

  // The form in both themes too: dark at 720 px, light at 1280 px.
  for (const [width, colorScheme] of [
    [720, 'dark'],
    [1280, 'light'],
  ] as const) {
    it(`fits a ${width} px window (${colorScheme}): results, and the form with its review`, async () => {
      const { page } = await ui.open('MCP', { colorScheme });
      await page.setViewportSize({ width, height: 860 });
      const view = await discover(page, 'weather');
      const first = view.getByRole('list', { name: 'Registry servers' }).getByRole('listitem').first();
      await first.waitFor();
      await expectLooksRight(page, [view.getByLabel('Search the MCP Registry'), first]);
      await view.getByRole('button', { name: 'Install io.github.user/local-weather' }).click();
      const dialog = page.getByRole('dialog', { name: 'Install io.github.user/local-weather' });
      await dialog.getByRole('button', { name: 'Review what it runs' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'Required: API_KEY.' }).waitFor();
      await ui.screenshot(page, `mcp-discover-form-${width}-${colorScheme}`);
      await expectLooksRight(page, [
        dialog.getByLabel('API_KEY (required)'),
        dialog.getByRole('list', { name: 'What will run' }),
      ]);
    });
  }
});
