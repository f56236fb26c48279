// Installing an MCP bundle from the MCP screen in the browser, against the real `switchyard serve`: a bundle packed by
// the `mcpb` CLI (server-everything inside) chosen with the file picker → the confirmation with its name, version,
// author, "Not signed" and exactly what it runs → its settings (the sensitive one a password field) → installed,
// listed and connected, the secret only as a reference in the file; the same dialog from a file dropped on the
// screen; light and dark, 720 and 1280 px, axe.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packEverythingBundle } from '../support/mcp-bundle.js';
import { nodeOnlyPath } from '../support/registry-server.js';
import { expectLooksRight } from './a11y.js';
import { closeAfterTests, expectBothThemesLookRight, startUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;
let folder: string;
let bundle: string;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-bundle-ui-'));
  bundle = packEverythingBundle(folder);
  ui = await startUi({ env: { PATH: nodeOnlyPath(path.join(folder, 'bin')), SHELL: '' } });
}, 120_000);

closeAfterTests(() => ui);
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const onDisk = () => {
  const file = path.join(ui.dataDir, 'mcp_settings.json');
  return fs.existsSync(file)
    ? ((JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers?: object }).mcpServers ?? {})
    : {};
};

/** The page's own constructors (the tests compile without the DOM's types). */
interface PageGlobals {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
  DragEvent: new (type: string, init: object) => unknown;
}

/** Drops the bundle on the screen as a person dragging it from their file manager does. */
async function dropBundle(page: Page): Promise<void> {
  const base64 = fs.readFileSync(bundle).toString('base64');
  await page.locator('main').evaluate((target: { dispatchEvent(event: unknown): boolean }, data) => {
    const { DataTransfer, DragEvent, File } = globalThis as unknown as PageGlobals;
    const bytes = Uint8Array.from(atob(data), (character) => character.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], 'everything.mcpb', { type: 'application/octet-stream' }));
    for (const kind of ['dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: transfer }));
    }
  }, base64);
}

describe('MCP bundles', { timeout: 90_000 }, () => {
  it('file picker → what it is and runs → its settings → installed and connected, the secret kept out of the file', async () => {
    const { page } = await ui.open('MCP');
    await page.getByLabel('MCP bundle to install').setInputFiles(bundle);
    const dialog = page.getByRole('dialog', { name: 'Install everything.mcpb' });
    await dialog.getByText('Everything 1.2.3').waitFor();
    await dialog.getByText('Ada').waitFor();
    await dialog.getByText('Not signed').waitFor();
    const folderPath = path.join(ui.dataDir, 'mcp-bundles', 'everything-bundle');
    const shown = dialog.getByRole('list', { name: 'What will run' });
    await shown.getByText(`node ${folderPath}/server/index.js stdio`).waitFor();
    await shown.getByText('With EVERYTHING_API_KEY, EVERYTHING_MODE set.').waitFor();
    const install = dialog.getByRole('button', { name: 'Install and start' });
    expect(await install.isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Check the settings' }).click();
    await dialog.getByText('Required: fill it in.').waitFor();
    expect(await install.isDisabled()).toBe(true);

    const key = dialog.getByLabel('API key (required)');
    expect(await key.getAttribute('type')).toBe('password');
    await key.fill('sk-ui-bundle-secret-0001');
    await dialog.getByRole('button', { name: 'Check the settings' }).click();
    await expect.poll(() => install.isDisabled()).toBe(false);
    expect(onDisk()).toEqual({});
    await install.click();
    await dialog.waitFor({ state: 'detached' });

    const listed = page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: /everything-bundle/ });
    await listed.getByRole('img', { name: 'connected' }).waitFor({ timeout: 45_000 });
    expect(onDisk()).toMatchObject({
      'everything-bundle': {
        env: { EVERYTHING_API_KEY: '${secret:everything-bundle.api_key}', EVERYTHING_MODE: 'fast' },
        source: { bundle: { name: 'everything-bundle', version: '1.2.3', signed: false } },
      },
    });
    expect(fs.readFileSync(path.join(ui.dataDir, 'mcp_settings.json'), 'utf8')).not.toContain('sk-ui-bundle-secret');
  });

  it('a bundle dropped on the screen opens the same confirmation; it looks right in light and dark', async () => {
    await expectBothThemesLookRight(ui, 'MCP', 'mcp-bundle', async (page) => {
      await dropBundle(page);
      const dialog = page.getByRole('dialog', { name: 'Install everything.mcpb' });
      await dialog.getByText('Everything 1.2.3').waitFor();
      return [dialog.getByLabel('Mode'), dialog.getByRole('list', { name: 'What will run' })];
    });
  });

  for (const [width, colorScheme] of [
    [720, 'dark'],
    [1280, 'light'],
  ] as const) {
    it(`fits a ${width} px window (${colorScheme})`, async () => {
      const { page } = await ui.open('MCP', { colorScheme });
      await page.setViewportSize({ width, height: 860 });
      await page.getByLabel('MCP bundle to install').setInputFiles(bundle);
      const dialog = page.getByRole('dialog', { name: 'Install everything.mcpb' });
      await dialog.getByText('Signature').waitFor();
      await ui.screenshot(page, `mcp-bundle-${width}-${colorScheme}`);
      await expectLooksRight(page, [
        dialog.getByLabel(/^API key/),
        dialog.getByRole('list', { name: 'What will run' }),
      ]);
    });
  }
});
