// Exporting and importing a conversation as a person does in the browser against `switchyard serve` and the
// scripted upstream: the header's export menu (keyboard and mouse) downloads Markdown and JSON; "Import" in the
// conversation list opens the JSON as a new conversation identical to the first, and a file that is not an export
// gets a clear message — in light and dark, at 1280 px and 720 px.

import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type ScriptedUpstream } from '../chat/scripted-upstream.js';
import { waitFor } from '../support/wait-for.js';
import { expectLooksRight } from './a11y.js';
import { useChatUi } from './chat-ui-harness.js';
import { chatAtWidth, conversationList, hasFocus, narrowChatPx, newChat, type UiHarness } from './ui-harness.js';

let upstream: ScriptedUpstream;
let ui: UiHarness;

useChatUi((started) => ({ ui, upstream } = started));

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000 });

async function openChat(colorScheme: 'light' | 'dark', width: number): Promise<Page> {
  const { page } = await ui.open('Chat', { colorScheme });
  await chatAtWidth(page, width);
  await poll(() => page.getByRole('combobox', { name: 'Model', exact: true }).inputValue()).toBe('fake/scripted-1');
  return page;
}

const conversations = (page: Page) => page.getByRole('complementary', { name: 'Conversations' });
const transcriptText = (page: Page) => page.getByRole('log', { name: 'Messages' }).locator('.user-text, .markdown');

async function startChat(page: Page, text: string): Promise<void> {
  const requests = upstream.chatRequests().length;
  await newChat(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await waitFor(() => upstream.chatRequests().length > requests, { what: 'the request' });
  await page.getByRole('button', { name: 'Send' }).waitFor();
  await poll(() => page.getByRole('log', { name: 'Messages' }).locator('[aria-busy="true"]').count()).toBe(0);
}

/**
 * How many conversations the list shows once it has loaded: the same count twice, half a second apart (the model
 * picker, which openChat waits for, may be filled before the list's own call is answered).
 */
async function listedConversations(page: Page): Promise<number> {
  for (let previous = -1; ;) {
    const count = await conversations(page).getByRole('listitem').count();
    if (count === previous) return count;
    previous = count;
    await page.waitForTimeout(500);
  }
}

/** Chooses an export format from the header's menu and answers the file downloaded. */
async function exported(page: Page, format: RegExp): Promise<{ name: string; text: string }> {
  await page.getByRole('button', { name: 'Export conversation' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('group', { name: 'Export as' }).getByRole('button', { name: format }).click(),
  ]);
  return { name: download.suggestedFilename(), text: fs.readFileSync((await download.path())!, 'utf8') };
}

describe('export and import a conversation', () => {
  for (const [colorScheme, width] of [
    ['light', 1280],
    ['dark', 720],
  ] as const) {
    it(`exports Markdown and JSON and imports the JSON back (${colorScheme}, ${width} px)`, async () => {
      const page = await openChat(colorScheme, width);
      const title = `Export me ${colorScheme}`;
      await startChat(page, title);

      // The menu, by keyboard: it opens on the first format, stays inside the window, and Escape closes it.
      const toggle = page.getByRole('button', { name: 'Export conversation' });
      await toggle.focus();
      await page.keyboard.press('Enter');
      const menu = page.getByRole('group', { name: 'Export as' });
      await menu.waitFor();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await poll(() => hasFocus(menu.getByRole('button', { name: 'Markdown (.md)' }))).toBe(true);
      // Inside the window, and over the conversation, not over the list beside it.
      const box = (await menu.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      const view = (await page.locator('.conversation-view').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(view.x);
      await ui.screenshot(page, `chat-export-menu-${colorScheme}-${width}`);
      expect(
        await menu.evaluate((element) => element.ownerDocument.defaultView!.getComputedStyle(element).zIndex),
      ).toBe('10');
      await page.keyboard.press('Escape');
      await poll(() => menu.count()).toBe(0);
      expect(await hasFocus(toggle)).toBe(true);
      expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(1);
      await expectLooksRight(page, [toggle]);

      const markdown = await exported(page, /^Markdown/);
      expect(markdown.name).toBe(`Export-me-${colorScheme}.md`);
      expect(markdown.text).toContain(`# ${title}\n\nModel: fake/scripted-1\n\n## You\n\n${title}\n\n## Assistant`);
      const json = await exported(page, /^JSON/);
      expect(json.name).toBe(`Export-me-${colorScheme}.json`);
      expect(JSON.parse(json.text)).toMatchObject({ format: 'switchyard-conversation', conversation: { title } });

      // Import opens the copy: a second conversation of that title, the same messages.
      const shown = await transcriptText(page).allTextContents();
      const list = await conversationList(page);
      await expectLooksRight(page, [list.getByRole('button', { name: 'Import' })]);
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        list.getByRole('button', { name: 'Import' }).click(),
      ]);
      const exportedAt = page.url();
      await chooser.setFiles({ name: json.name, mimeType: 'application/json', buffer: Buffer.from(json.text) });
      await poll(() => page.url()).not.toBe(exportedAt); // the copy is opened at its own address
      await poll(() => transcriptText(page).allTextContents()).toEqual(shown);
      // A narrow window folds the list once the copy is opened; it lists both, the copy the open one.
      const listed = await conversationList(page);
      await poll(() => listed.getByRole('button', { name: title, exact: true }).count()).toBe(2);
      await poll(() => listed.locator('[aria-current="true"]').textContent()).toBe(title);
      if (width < narrowChatPx) {
        // The list lies over the conversation in a narrow window: Escape folds it, as a person would.
        await page.keyboard.press('Escape');
        await poll(() => listed.isVisible()).toBe(false);
      }
      const again = await exported(page, /^JSON/);
      expect(JSON.parse(again.text).messages.map((message: { content: unknown }) => message.content)).toEqual(
        JSON.parse(json.text).messages.map((message: { content: unknown }) => message.content),
      );
    });
  }

  it('says why a file that is not a conversation export cannot be imported', async () => {
    const page = await openChat('dark', 1280);
    const before = await listedConversations(page);
    for (const [name, text, why] of [
      ['notes.json', 'not json at all', 'This file is not JSON: choose a conversation exported as JSON.'],
      ['mcp.json', '{"mcpServers": {}}', 'This file is not a conversation exported from Switchyard.'],
    ]) {
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        conversations(page).getByRole('button', { name: 'Import' }).click(),
      ]);
      await chooser.setFiles({ name: name!, mimeType: 'application/json', buffer: Buffer.from(text!) });
      const alert = conversations(page).getByRole('alert');
      await poll(() => alert.textContent()).toBe(`Could not import ${name}: ${why}`);
    }
    expect(await conversations(page).getByRole('listitem').count()).toBe(before);
    await expectLooksRight(page, [conversations(page).getByRole('alert')]);
  });
});
