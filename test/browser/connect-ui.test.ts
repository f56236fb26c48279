// "Connect a tool" on the Gateway screen against the real `switchyard serve`, whose HOME is a temporary folder:
// connecting Claude Code edits its settings.json there (a backup kept) with a new key that works against the gateway
// (the panel says it is written there, with nothing to copy), and Disconnect, once confirmed, puts the file back
// byte for byte and deletes the key.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';
import { expectLooksRight } from './a11y.js';
import { seedProvider } from './seed.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

let upstream: FakeUpstream;
let ui: UiHarness;
let home: string;
const original = '{\n  // my theme\n  "theme": "dark"\n}\n';

beforeAll(async () => {
  upstream = await startFakeUpstream({ models: ['echo-1'] });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-ui-home-'));
  fs.mkdirSync(path.join(home, '.claude'));
  fs.writeFileSync(path.join(home, '.claude/settings.json'), original);
  ui = await startUi({
    prepare: (dataDir) => seedProvider(dataDir, { id: 'fake', baseUrl: upstream.baseUrl }),
    env: { HOME: home },
  });
}, 120_000);

closeAfterTests(
  () => ui,
  () => upstream,
  () => ({ close: async () => fs.rmSync(home, { recursive: true, force: true }) }),
);

describe('connecting a tool from the gateway screen', () => {
  it('connects Claude Code, says the key is written for it, reports what changed, and disconnects it after asking', async () => {
    const { page, bridgeAnswers } = await ui.open('Gateway');
    const settingsPath = path.join(home, '.claude/settings.json');
    const origin = new URL(ui.server.baseUrl).origin;
    const panel = page.getByRole('region', { name: 'Connect a tool' });
    await panel.getByLabel('Tool', { exact: true }).selectOption('claude-code');
    await panel.getByLabel('Model for the tool').fill('fake/echo-1');
    await panel.getByRole('button', { name: 'Connect', exact: true }).click();

    // What changed, as the panel says and as the file is. The key went into the tool's settings: the panel says
    // so, and asks nobody to copy it (no "copy the key now" dialog).
    const report = page.getByRole('status', { name: 'Claude Code connected' });
    await report.waitFor();
    expect(await report.textContent()).toContain(`original kept in ${settingsPath}.switchyard-backup`);
    expect(await report.textContent()).toContain('env.ANTHROPIC_AUTH_TOKEN');
    expect(await report.textContent()).toContain(
      `It is written into ${settingsPath} for Claude Code: there is nothing to copy.`,
    );
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByText(/Copy the key now/).count()).toBe(0);
    const written = fs.readFileSync(settingsPath, 'utf8');
    const secret = /"ANTHROPIC_AUTH_TOKEN": "(sk-sy-[^"]+)"/.exec(written)?.[1] ?? '';
    expect(secret).toMatch(/^sk-sy-/);
    expect(written).toContain('// my theme');
    expect(written).toContain(`"ANTHROPIC_BASE_URL": "${origin}"`);
    expect(written).toContain(`"ANTHROPIC_AUTH_TOKEN": "${secret}"`);
    expect(written).toContain('"ANTHROPIC_DEFAULT_HAIKU_MODEL": "fake/echo-1"');
    expect(fs.statSync(settingsPath).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(`${settingsPath}.switchyard-backup`, 'utf8')).toBe(original);
    // The tool list reloads after the report shows.
    await expect
      .poll(() => panel.getByLabel('Tool', { exact: true }).locator('option:checked').textContent())
      .toBe('Claude Code (connected)');
    await expectLooksRight(page, [panel, report]);
    await panel.scrollIntoViewIfNeeded();
    await ui.screenshot(page, 'connect-claude-code');

    // The key works against the gateway, and is named after the tool.
    const models = await fetch(`${origin}/v1/models`, { headers: { authorization: `Bearer ${secret}` } });
    expect(models.status).toBe(200);
    const keys = await ui.invoke<{ keys: { name: string }[] }>('keys:list');
    expect(keys.keys.map((key) => key.name)).toEqual(['claude-code']);
    // The secret came to the page once, in the answer to connect:apply.
    expect(bridgeAnswers.filter((answer) => answer.includes(secret))).toHaveLength(1);

    // Disconnect deletes the key: it asks first, naming the key, and Cancel changes nothing.
    const keyId = (await ui.invoke<{ keys: { id: string }[] }>('keys:list')).keys[0]!.id;
    await panel.getByRole('button', { name: 'Disconnect' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disconnect Claude Code?' });
    expect(await confirm.textContent()).toContain(`its key ${keyId} is deleted`);
    await expectLooksRight(page, [confirm]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(fs.readFileSync(settingsPath, 'utf8')).toBe(written);
    expect((await ui.invoke<{ keys: unknown[] }>('keys:list')).keys).toHaveLength(1);
    await panel.getByRole('button', { name: 'Disconnect' }).click();
    await confirm.getByRole('button', { name: 'Disconnect and delete the key' }).click();
    const undone = page.getByRole('status', { name: 'Claude Code disconnected' });
    await undone.waitFor();
    expect(await undone.textContent()).toContain('restored from its backup');
    expect(fs.readFileSync(settingsPath, 'utf8')).toBe(original);
    expect(fs.existsSync(`${settingsPath}.switchyard-backup`)).toBe(false);
    expect((await fetch(`${origin}/v1/models`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
    await expectLooksRight(page, [panel, undone]);
  });

  it('shows the settings to copy without changing anything', async () => {
    const { page } = await ui.open('Gateway');
    const panel = page.getByRole('region', { name: 'Connect a tool' });
    await panel.getByLabel('Tool', { exact: true }).selectOption('codex');
    await panel.getByLabel('Model for the tool').fill('');
    await panel.getByRole('button', { name: 'Show settings' }).click();
    const settings = page.getByLabel('Codex settings');
    await settings.waitFor();
    expect(await settings.textContent()).toContain('wire_api = "responses"');
    expect(fs.existsSync(path.join(home, '.codex'))).toBe(false);
    await expectLooksRight(page, [settings]);
  });
});
