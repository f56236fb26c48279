// The MCP server form's secrets against the real `switchyard serve` (its secret store the 0600 file, as where no
// keychain answers) and server-everything: a variable whose name looks secret is locked by default; saved, its
// value goes to the store and the file gets `${secret:NAME}`; the page never receives the value back, and the form
// reopened shows only its last four characters. Light and dark, 720 and 1280 wide, with an axe audit.

import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectLooksRight, seriousViolations } from './a11y.js';
import { closeAfterTests, startUi, withEverythingServer, type UiHarness } from './ui-harness.js';

let ui: UiHarness;
const secret = 'ghp_browserSecretValue-9abcd';

beforeAll(async () => {
  ui = await startUi({ prepare: withEverythingServer });
}, 120_000);

closeAfterTests(() => ui);

async function editEverything(page: Page) {
  const listed = page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: /everything/ });
  await listed.getByRole('img', { name: 'connected' }).waitFor({ timeout: 30_000 });
  await page.getByRole('region', { name: 'Server everything' }).getByRole('button', { name: 'Edit' }).click();
  return page.getByRole('dialog', { name: 'Edit server everything' });
}

/** The data dir's files that hold `value`, by name. */
function filesHolding(value: string): string[] {
  const entries = fs.readdirSync(ui.dataDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .filter((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'latin1').includes(value))
    .map((entry) => entry.name);
}

describe('secrets in the MCP server form', { timeout: 90_000 }, () => {
  it('locks a secret-looking variable, stores its value, and shows only its last four characters after', async () => {
    const { page, bridgeAnswers } = await ui.open('MCP');
    let form = await editEverything(page);
    await form.getByRole('button', { name: 'Add environment variable' }).click();
    await form.getByLabel('Environment variable 1 name').fill('GITHUB_TOKEN');
    const lock = form.getByRole('button', { name: 'Keep GITHUB_TOKEN in the secret store' });
    expect(await lock.getAttribute('aria-pressed')).toBe('true');
    await form.getByLabel('Environment variable GITHUB_TOKEN value').fill(secret);
    await form.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('dialog', { name: 'Start everything?' })
      .getByRole('button', { name: 'Save and restart' })
      .click();
    await form.waitFor({ state: 'detached' });

    const onDisk = JSON.parse(fs.readFileSync(path.join(ui.dataDir, 'mcp_settings.json'), 'utf8'));
    expect(onDisk.mcpServers.everything.env).toEqual({ GITHUB_TOKEN: '${secret:everything.GITHUB_TOKEN}' });
    expect(filesHolding(secret)).toEqual(['secrets.json']);

    form = await editEverything(page);
    const value = form.getByLabel('Environment variable GITHUB_TOKEN value');
    expect(await value.inputValue()).toBe('');
    expect(await value.getAttribute('placeholder')).toBe('••••abcd (type to replace)');
    await form.getByRole('button', { name: 'Show GITHUB_TOKEN' }).click();
    expect(await value.inputValue()).toBe('');
    // The JSON editor shows the file: the reference, never the value.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Edit JSON' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit mcp_settings.json' }).getByLabel('Settings JSON');
    await expect.poll(() => editor.inputValue()).toContain('${secret:everything.GITHUB_TOKEN}');
    expect(await editor.inputValue()).not.toContain(secret);
    await page.keyboard.press('Escape');
    // Every answer the page got from the bridge: the masked form only.
    await expect.poll(() => bridgeAnswers.some((answer) => answer.includes('••••abcd'))).toBe(true);
    for (const answer of bridgeAnswers) expect(answer).not.toContain(secret.slice(0, -4));
    // The server started with the value.
    const startedWith = async () => {
      const env = await ui.invoke<{ text: string; isError: boolean }>('mcp:call-tool', {
        name: 'everything',
        tool: 'get-env',
      });
      return env.isError ? env.text : (JSON.parse(env.text) as Record<string, string>).GITHUB_TOKEN;
    };
    await expect.poll(startedWith, { timeout: 30_000 }).toBe(secret);
  });

  it('looks right in light and dark, 720 and 1280 wide, with the stored secret shown masked', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [720, 1280]) {
        const { page } = await ui.open('MCP', { colorScheme });
        await page.setViewportSize({ width, height: 860 });
        const form = await editEverything(page);
        const value = form.getByLabel('Environment variable GITHUB_TOKEN value');
        await expect.poll(() => value.getAttribute('placeholder')).toBe('••••abcd (type to replace)');
        const lock = form.getByRole('button', { name: 'Keep GITHUB_TOKEN in the secret store' });
        await ui.screenshot(page, `mcp-secret-field-${colorScheme}-${width}`);
        await expectLooksRight(page, [value, lock]);
        await ui.closePages();
      }
    }
  });

  it("offers to move an imported config's secrets, checked by default, and moves them", async () => {
    const { page } = await ui.open('MCP');
    const imported = 'sk-imported-key-value-wxyz';
    const config = {
      mcpServers: { imported: { command: 'imported-server', disabled: true, env: { API_KEY: imported } } },
    };
    await page.getByLabel('Config file to import').setInputFiles({
      name: 'claude_desktop_config.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(config)),
    });
    const confirm = page.getByRole('dialog', { name: 'Import this server from claude_desktop_config.json?' });
    const move = confirm.getByRole('checkbox', { name: /Move its secret \(imported: API_KEY\) into the secret store/ });
    expect(await move.isChecked()).toBe(true);
    await ui.screenshot(page, 'mcp-import-secrets-light');
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Import and start' }).click();
    await page.getByRole('status').getByText('moved API_KEY to the secret store').waitFor();
    const onDisk = JSON.parse(fs.readFileSync(path.join(ui.dataDir, 'mcp_settings.json'), 'utf8'));
    expect(onDisk.mcpServers.imported.env).toEqual({ API_KEY: '${secret:imported.API_KEY}' });
    expect(filesHolding(imported)).toEqual(['secrets.json']);
  });
});
