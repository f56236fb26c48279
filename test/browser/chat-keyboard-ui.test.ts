// The message box and the keyboard, as a person uses them: the box grows with its text up to 40% of the window,
// then scrolls, and shrinks back after sending; the chat's shortcuts (new chat, search, message box, model
// picker) and their help dialog (? outside text fields, or its button); and at 720 px the list starts folded and
// the message box keeps a usable width.

import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectLooksRight } from './a11y.js';
import { useChatUi } from './chat-ui-harness.js';
import { hasFocus, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

useChatUi((started) => ({ ui } = started), { apiKey: 'sk-upstream-test' });

const windowHeight = 860; // the harness's

async function openChat(colorScheme: 'light' | 'dark', width: number): Promise<Page> {
  const { page } = await ui.open('Chat', { colorScheme });
  await page.setViewportSize({ width, height: windowHeight });
  await expect.poll(() => page.getByRole('combobox', { name: 'Model' }).inputValue()).toBe('fake/scripted-1');
  return page;
}

interface BoxSize {
  height: number;
  scrollHeight: number;
  clientHeight: number;
}

function sizeOf(box: Locator): Promise<BoxSize> {
  return box.evaluate((element) => {
    const area = element as unknown as BoxSize & { getBoundingClientRect(): { height: number } };
    return {
      height: area.getBoundingClientRect().height,
      scrollHeight: area.scrollHeight,
      clientHeight: area.clientHeight,
    };
  });
}

describe('the message box', () => {
  for (const [colorScheme, width] of [
    ['light', 1280],
    ['dark', 720],
  ] as const) {
    it(`grows with its text up to 40% of the window, then scrolls, and shrinks after sending (${colorScheme}, ${width} px)`, async () => {
      const page = await openChat(colorScheme, width);
      const box = page.getByRole('textbox', { name: 'Message' });
      const empty = await sizeOf(box);

      await box.fill(Array.from({ length: 5 }, (_, line) => `line ${line}`).join('\n'));
      const five = await sizeOf(box);
      expect(five.height, 'taller for five lines').toBeGreaterThan(empty.height + 20);
      expect(five.scrollHeight, 'all five lines shown').toBeLessThanOrEqual(five.clientHeight + 1);

      await box.fill(Array.from({ length: 60 }, (_, line) => `line ${line}`).join('\n'));
      const sixty = await sizeOf(box);
      expect(Math.abs(sixty.height - windowHeight * 0.4), 'stops at 40% of the window').toBeLessThanOrEqual(2);
      expect(sixty.scrollHeight, 'then scrolls').toBeGreaterThan(sixty.clientHeight + 100);
      await ui.screenshot(page, `chat-composer-tall-${colorScheme}-${width}`);
      await expectLooksRight(page, [box]);

      await box.press('Enter');
      await page.getByRole('article', { name: 'Your message' }).first().waitFor();
      await expect.poll(async () => (await sizeOf(box)).height, { message: 'back to its size' }).toBe(empty.height);
    });
  }

  it('keeps a usable width at 720 px: the list folds, and opened it lies over the conversation', async () => {
    const page = await openChat('light', 1280);
    const list = page.getByRole('complementary', { name: 'Conversations' });
    const box = page.getByRole('textbox', { name: 'Message' });
    expect(await list.isVisible(), 'shown beside the conversation in a wide window').toBe(true);
    await box.fill('first');
    await box.press('Enter');
    await page.getByRole('article', { name: 'Your message' }).waitFor();

    await page.setViewportSize({ width: 720, height: windowHeight });
    await expect.poll(() => list.isVisible(), { message: 'folded in a narrow window' }).toBe(false);
    const width = (await box.boundingBox())!.width;
    const composer = (await page.locator('.composer').boundingBox())!.width;
    expect(width, 'the message box keeps a usable width').toBeGreaterThanOrEqual(320);
    expect(width / composer, 'and most of its row').toBeGreaterThanOrEqual(0.55);
    await expectLooksRight(page, [box, page.getByRole('button', { name: 'Send' })]);

    // Opened in a narrow window, the list lies over the conversation: the message box keeps its width.
    await page.getByRole('button', { name: 'Show conversations' }).click();
    await list.waitFor();
    expect((await box.boundingBox())!.width).toBe(width);
    await ui.screenshot(page, 'chat-720-list-open');
    await list.getByRole('searchbox', { name: 'Search conversations' }).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => list.isVisible(), { message: 'Escape folds it' }).toBe(false);
    await page.getByRole('button', { name: 'Show conversations' }).click();
    await list.getByRole('button', { name: 'first', exact: true }).click();
    await expect.poll(() => list.isVisible(), { message: 'folds once a conversation is picked' }).toBe(false);

    // A fresh page at 720 px starts with the list folded.
    await page.reload();
    await box.waitFor();
    expect(await list.isVisible()).toBe(false);
  });
});

describe('keyboard shortcuts', () => {
  for (const [colorScheme, width] of [
    ['light', 720],
    ['dark', 1280],
  ] as const) {
    it(`are listed in a dialog opened by ? or its button, and work (${colorScheme}, ${width} px)`, async () => {
      const page = await openChat(colorScheme, width);
      const box = page.getByRole('textbox', { name: 'Message' });
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });

      // ? outside a text field opens the help; inside one it is just a character.
      await page.locator('body').press('?');
      await help.waitFor();
      for (const description of ['New chat', 'Search conversations', 'Go to the message box', 'Choose the model']) {
        await help.getByText(description, { exact: true }).waitFor();
      }
      expect(await help.getByRole('term').filter({ hasText: 'New chat' }).count()).toBe(1);
      expect(
        (await help.getByText('New chat', { exact: true }).locator('xpath=..').locator('kbd').allTextContents()).join(
          '+',
        ),
      ).toBe('Ctrl+Shift+O');
      await ui.screenshot(page, `chat-shortcuts-${colorScheme}-${width}`);
      await expectLooksRight(page, [help.getByRole('button', { name: 'Close' })]);
      await page.keyboard.press('Escape');
      await expect.poll(() => help.count()).toBe(0);

      await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
      await help.waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => help.count()).toBe(0);

      await box.click();
      await page.keyboard.type('why?');
      expect(await box.inputValue()).toBe('why?');
      expect(await help.count()).toBe(0);

      // Ctrl+K: the search, shown first when the list is folded.
      await page.keyboard.press('Control+K');
      const search = page.getByRole('searchbox', { name: 'Search conversations' });
      await expect.poll(() => hasFocus(search)).toBe(true);

      // Shift+Esc: back to the message box, the text still there.
      await page.keyboard.press('Shift+Escape');
      await expect.poll(() => hasFocus(box)).toBe(true);
      expect(await box.inputValue()).toBe('why?');

      // Ctrl+/: the model picker, open.
      const picker = page.getByRole('combobox', { name: 'Model' });
      await page.keyboard.press('Control+/');
      await expect.poll(() => hasFocus(picker)).toBe(true);
      await expect.poll(() => picker.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Escape');

      // Ctrl+Shift+O: a new chat, open at its own address.
      const before = new URL(page.url()).hash;
      await page.keyboard.press('Control+Shift+O');
      await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/chat\/.+/);
      expect(new URL(page.url()).hash).not.toBe(before);
      await page.getByRole('heading', { level: 1, name: 'New chat' }).waitFor();
    });
  }
});
