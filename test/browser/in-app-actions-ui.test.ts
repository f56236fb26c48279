// Messages in the app offer what the app can do, not a CLI command: a reply refused for lack of credits says to
// add credits and has a button that opens them; an import that skipped a server of the same name offers to
// replace it, instead of "import with --overwrite".

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { noCreditsError } from '../../shared/bridge/chat-message.js';
import type { ScriptedUpstream } from '../chat/scripted-upstream.js';
import { expectLooksRight } from './a11y.js';
import { useChatUi } from './chat-ui-harness.js';
import { confirmIn, type UiHarness } from './ui-harness.js';

let upstream: ScriptedUpstream;
let ui: UiHarness;
const settingsFile = () => path.join(ui.dataDir, 'mcp_settings.json');

useChatUi((started) => ({ ui, upstream } = started), {
  prepare: (dataDir) => {
    const settings = { mcpServers: { notes: { command: 'my-notes-server', disabled: true } } };
    fs.writeFileSync(path.join(dataDir, 'mcp_settings.json'), JSON.stringify(settings, null, 2));
  },
});

describe('messages that offer the app’s own action', () => {
  it('a reply refused for lack of credits says so and opens the credits', async () => {
    await ui.invoke('credits:set', { amount: 0 });
    try {
      const { page } = await ui.open('Chat');
      await expect
        .poll(() => page.getByRole('combobox', { name: 'Model', exact: true }).inputValue())
        .toBe('fake/scripted-1');
      await page.getByRole('button', { name: 'New chat', exact: true }).first().click();
      await page.getByRole('complementary', { name: 'Conversations' }).locator('[aria-current="true"]').waitFor();
      const message = page.getByRole('textbox', { name: 'Message' });
      await message.fill('Hello there');
      await message.press('Enter');

      const reply = page.getByRole('article', { name: 'Assistant message' }).last();
      await reply.getByText(noCreditsError).waitFor();
      expect(await page.locator('body').textContent()).not.toContain('switchyard credits');
      expect(upstream.chatRequests()).toHaveLength(0);
      await expectLooksRight(page, [reply.getByRole('button', { name: 'Add credits' })]);

      await reply.getByRole('button', { name: 'Add credits' }).click();
      await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Credits' }).waitFor();
      expect(
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('button', { name: 'Activity' })
          .getAttribute('aria-current'),
      ).toBe('page');
    } finally {
      await ui.invoke('credits:unset');
    }
  });

  it('an import that skipped a different server of the same name offers to replace it', async () => {
    const { page } = await ui.open('MCP');
    const config = { mcpServers: { notes: { command: 'their-notes-server', disabled: true } } };
    await page.getByLabel('Config file to import').setInputFiles({
      name: 'claude_desktop_config.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(config)),
    });
    await confirmIn(page, 'Import this server from claude_desktop_config.json?', 'Import and start');
    const report = page.getByRole('status').filter({ hasText: 'Imported:' });
    await report.getByText('skipped notes (a different server with this name exists)').waitFor();
    expect(await report.textContent()).not.toContain('--overwrite');
    expect(JSON.parse(fs.readFileSync(settingsFile(), 'utf8')).mcpServers.notes.command).toBe('my-notes-server');
    await expectLooksRight(page, [report.getByRole('button', { name: 'Replace notes with the imported entry' })]);

    await report.getByRole('button', { name: 'Replace notes with the imported entry' }).click();
    await report.getByText('Imported: replaced notes.').waitFor();
    expect(JSON.parse(fs.readFileSync(settingsFile(), 'utf8')).mcpServers.notes).toEqual({
      command: 'their-notes-server',
      disabled: true,
    });
    expect(await report.getByRole('button').count()).toBe(0);
  });
});
