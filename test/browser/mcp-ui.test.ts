// The MCP screen against the real `switchyard serve` and the published reference server (server-everything):
// added through the form it connects (live status dot), a tool's auto-approve switch writes the settings file,
// the log shows the server's stderr, resources can be read, and bad input is shown where it is.

import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { everythingBin } from '../chat/chat-test-app.js';
import { closeAfterTests, confirmIn, expectBothThemesLookRight, startUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

beforeAll(async () => {
  ui = await startUi();
}, 120_000);

closeAfterTests(() => ui);

const settingsFile = () => path.join(ui.dataDir, 'mcp_settings.json');
const onDisk = () =>
  JSON.parse(fs.readFileSync(settingsFile(), 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> };

function detail(page: Page) {
  return page.getByRole('region', { name: 'Server everything' });
}

async function connected(page: Page): Promise<void> {
  const listed = page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: /everything/ });
  await listed.getByRole('img', { name: 'connected' }).waitFor({ timeout: 30_000 });
}

describe('the MCP screen', { timeout: 60_000 }, () => {
  it('adds server-everything in the form, shows it connected, and writes a tool’s auto-approve to the file', async () => {
    const { page } = await ui.open('MCP');
    await page.getByText('No MCP servers yet').waitFor();
    await ui.screenshot(page, 'mcp-empty-light');

    await page.getByRole('button', { name: 'Add server', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'Add an MCP server' });
    await form.getByLabel('Name', { exact: true }).fill('everything');
    await form.getByLabel('Command', { exact: true }).fill(process.execPath);
    await form.getByLabel('Arguments', { exact: true }).fill(`${everythingBin}\nstdio`);
    // Env values are masked until revealed.
    await form.getByRole('button', { name: 'Add environment variable' }).click();
    await form.getByLabel('Environment variable 1 name').fill('DEMO_TOKEN');
    const value = form.getByLabel('Environment variable DEMO_TOKEN value');
    await value.fill('not-so-secret');
    // A name that looks secret is locked (kept in the secret store) by default; this one is written in the file.
    await form.getByRole('button', { name: 'Keep DEMO_TOKEN in the secret store' }).click();
    expect(await value.getAttribute('type')).toBe('password');
    await form.getByRole('button', { name: 'Show DEMO_TOKEN' }).click();
    expect(await value.getAttribute('type')).toBe('text');
    await form.getByRole('button', { name: 'Add server' }).click();
    // Nothing is written (so nothing starts) until the person has seen what will run and said yes.
    const confirm = page.getByRole('dialog', { name: 'Start everything?' });
    const shown = confirm.getByRole('list', { name: 'What will run' });
    await shown.getByText(`${process.execPath} ${everythingBin} stdio`).waitFor();
    await shown.getByText('With DEMO_TOKEN set.').waitFor();
    expect(await confirm.textContent()).not.toContain('not-so-secret');
    expect(onDisk().mcpServers?.everything).toBeUndefined();
    await ui.screenshot(page, 'mcp-confirm-start-light');
    await confirm.getByRole('button', { name: 'Add and start' }).click();
    await form.waitFor({ state: 'detached' });

    await connected(page);
    expect(onDisk().mcpServers.everything).toEqual({
      command: process.execPath,
      args: [everythingBin, 'stdio'],
      env: { DEMO_TOKEN: 'not-so-secret' },
    });
    const echo = detail(page).getByRole('switch', { name: 'Auto-approve echo' });
    expect(await echo.isChecked()).toBe(false);
    await echo.check({ force: true }); // the input is drawn as a track; clicking it is what the label does
    await expect.poll(() => onDisk().mcpServers.everything?.autoApprove).toEqual(['echo']);
    await expect.poll(() => echo.isChecked()).toBe(true);
    await ui.screenshot(page, 'mcp-tools-light');

    // A tool switched off leaves the chat's and the hub's tool lists, and what the definitions cost goes down.
    const cost = detail(page).getByLabel('Tool definitions cost');
    const tokensOf = async () =>
      Number((await cost.textContent())!.match(/about ([\d,]+) tokens/)![1]!.replace(/,/g, ''));
    const before = await tokensOf();
    expect(before).toBeGreaterThan(0);
    const offered = detail(page).getByRole('switch', { name: 'Offer echo to models and MCP clients' });
    await offered.uncheck({ force: true });
    await expect.poll(() => onDisk().mcpServers.everything?.disabledTools).toEqual(['echo']);
    await expect.poll(tokensOf).toBeLessThan(before);
    await offered.check({ force: true });
    await expect.poll(() => onDisk().mcpServers.everything?.disabledTools).toEqual([]);

    await detail(page).getByRole('button', { name: 'Run echo' }).click();
    const run = page.getByRole('dialog', { name: 'Run echo' });
    await run.getByRole('textbox', { name: /^message/ }).fill('kiwi');
    await run.getByRole('button', { name: 'Run', exact: true }).click();
    await run.getByRole('region', { name: 'Result' }).getByText('Echo: kiwi').waitFor();
    await page.keyboard.press('Escape');
    await run.waitFor({ state: 'detached' });
  });

  it('shows the server’s stderr in its log, reads a resource, and restarts it', async () => {
    const { page } = await ui.open('MCP');
    await connected(page);
    const tabs = detail(page).getByRole('tablist');
    await tabs.getByRole('tab', { name: 'Tools' }).focus();
    await page.keyboard.press('ArrowRight'); // tabs move with the arrow keys
    await expect.poll(() => tabs.getByRole('tab', { name: 'Log' }).getAttribute('aria-selected')).toBe('true');
    const log = detail(page).getByLabel('Log of everything');
    await log.locator('.log-stderr', { hasText: 'Starting default (STDIO) server' }).first().waitFor();
    await ui.screenshot(page, 'mcp-log-light');

    await tabs.getByRole('tab', { name: 'Resources' }).click();
    const resources = detail(page).getByRole('list', { name: 'Resources' });
    const first = resources.getByRole('button').first();
    await first.click();
    const content = detail(page).getByRole('region', { name: 'Resource content' });
    await content.locator('figure').first().waitFor();
    expect((await content.textContent())?.length).toBeGreaterThan(10);
    await ui.screenshot(page, 'mcp-resources-light');

    const pidOf = async () => /pid (\d+)/.exec((await detail(page).locator('.server-state').textContent()) ?? '')?.[1];
    const before = await pidOf();
    expect(before).toBeDefined();
    await detail(page).getByRole('button', { name: 'Restart' }).click();
    await expect.poll(pidOf, { timeout: 30_000 }).not.toBe(before);
    await connected(page);
  });

  it('shows what is wrong where it is: a bad field in the form, bad JSON in the raw editor', async () => {
    const { page } = await ui.open('MCP');
    await connected(page);
    const before = fs.readFileSync(settingsFile(), 'utf8');

    await detail(page).getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('dialog', { name: 'Edit server everything' });
    expect(await form.getByLabel('Environment variable DEMO_TOKEN value').inputValue()).toBe('not-so-secret');
    await form.getByLabel('Tool timeout (seconds)').fill('abc');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('expected a number of seconds, got "abc"').waitFor();
    expect(await form.getByLabel('Tool timeout (seconds)').getAttribute('aria-invalid')).toBe('true');
    await ui.screenshot(page, 'mcp-form-error-light');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Edit JSON' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit mcp_settings.json' });
    const text = editor.getByLabel('Settings JSON');
    expect(JSON.parse(await text.inputValue())).toEqual(onDisk());
    await text.fill('{ "mcpServers": { ');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor
      .getByRole('alert', { name: 'Problems' })
      .getByText(/is not valid JSON \(line 1, column \d+\)/)
      .waitFor();
    expect(await text.getAttribute('aria-invalid')).toBe('true');
    await text.fill('{ "mcpServers": { "bad": { "command": 3 } } }');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.getByRole('alert', { name: 'Problems' }).getByText('mcpServers.bad.command').waitFor();
    await ui.screenshot(page, 'mcp-json-error-light');
    await editor.getByRole('button', { name: 'Cancel' }).click();
    expect(fs.readFileSync(settingsFile(), 'utf8')).toBe(before);
  });

  it('disables and enables a server from its switch', async () => {
    const { page } = await ui.open('MCP');
    await connected(page);
    const enabled = detail(page).getByRole('switch', { name: 'Enable everything' });
    await enabled.uncheck({ force: true });
    await detail(page).getByRole('img', { name: 'disabled' }).waitFor();
    expect(onDisk().mcpServers.everything?.disabled).toBe(true);
    // The switch stays disabled until its action finished; `force` (the input is visually hidden behind the
    // styled track) would also click a disabled input, so wait for it first.
    await expect.poll(() => enabled.isEnabled()).toBe(true);
    await enabled.check({ force: true });
    await connected(page);
    expect(onDisk().mcpServers.everything).not.toHaveProperty('disabled');
  });

  it('imports a Claude Desktop config, and removes a server after confirmation', async () => {
    const { page } = await ui.open('MCP');
    await connected(page);
    const config = { mcpServers: { imported: { command: 'imported-server', disabled: true } } };
    await page.getByLabel('Config file to import').setInputFiles({
      name: 'claude_desktop_config.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(config)),
    });
    const confirm = page.getByRole('dialog', { name: 'Import this server from claude_desktop_config.json?' });
    await confirm.getByRole('list', { name: 'What will run' }).getByText('imported-server').waitFor();
    expect(onDisk().mcpServers.imported).toBeUndefined();
    await confirm.getByRole('button', { name: 'Import and start' }).click();
    await page.getByRole('status').getByText('Imported: added imported.').waitFor();
    const listed = page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: /imported/ });
    await listed.getByRole('img', { name: 'disabled' }).waitFor();
    expect(onDisk().mcpServers.imported).toEqual({ command: 'imported-server', disabled: true });

    await listed.click();
    const imported = page.getByRole('region', { name: 'Server imported' });
    await imported.getByRole('button', { name: 'Remove' }).click();
    await confirmIn(page, 'Remove server imported?', 'Remove server');
    await listed.waitFor({ state: 'detached' });
    expect(Object.keys(onDisk().mcpServers)).toEqual(['everything']);
  });

  it('looks right in light and dark', async () => {
    await expectBothThemesLookRight(ui, 'MCP', 'mcp', async (page) => {
      await connected(page);
      return [
        page.getByRole('list', { name: 'Servers' }),
        page.getByRole('button', { name: 'Add server', exact: true }),
        detail(page).getByRole('button', { name: 'Restart' }),
        detail(page).getByRole('button', { name: 'Edit' }),
      ];
    });
  });
});
