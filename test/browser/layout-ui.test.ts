// Layout and keyboard as a person meets them: every screen in a 720 px window, light and dark, with nothing wider
// than the window, overlapping or clipped (a wide table scrolls inside itself); the conversation list folds away
// (and starts folded in a narrow window); the theme can be chosen (system, light, dark) and is kept; and the
// keyboard reaches the message box without going through every conversation.

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectLooksRight } from './a11y.js';
import { longChatTitle, seedLongConversation } from './long-chat-seed.js';
import { seedProvider } from './seed.js';
import { closeAfterTests, hasFocus, startUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

beforeAll(async () => {
  ui = await startUi({
    prepare: async (dataDir) => {
      await seedProvider(dataDir, { id: 'fake', baseUrl: 'http://127.0.0.1:9/v1' });
      await seedLongConversation(dataDir);
    },
  });
  await ui.invoke('keys:create', { name: 'a key for the nightly import scripts', limit: 25 });
  for (let index = 0; index < 12; index += 1) {
    await ui.invoke('chat:create-conversation', { model: 'fake/scripted-1' });
  }
}, 120_000);

closeAfterTests(() => ui);

const narrow = { width: 720, height: 720 };

async function openNarrow(screen: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const { page } = await ui.open(screen, { colorScheme });
  await page.setViewportSize(narrow);
  return page;
}

/** The page's background colour as the browser draws it. */
function background(page: Page): Promise<string> {
  return page.locator('body').evaluate((body) => {
    const { getComputedStyle } = globalThis as unknown as {
      getComputedStyle(element: unknown): { backgroundColor: string };
    };
    return getComputedStyle(body).backgroundColor;
  });
}

describe('a 720 px window', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(
      `shows every screen without overflow, overlap or clipping, in ${colorScheme}`,
      { timeout: 120_000 },
      async () => {
        for (const screen of ['Chat', 'Providers', 'MCP', 'Keys', 'Activity', 'Gateway']) {
          const page = await openNarrow(screen, colorScheme);
          const heading = page.getByRole('heading', { level: 1 }).first();
          await heading.waitFor();
          await ui.screenshot(page, `narrow-${screen.toLowerCase()}-${colorScheme}`);
          await expectLooksRight(page, [heading]);
        }
      },
    );
  }

  it('stacks the keys as cards, so their row buttons are in the window without scrolling sideways', async () => {
    const page = await openNarrow('Keys');
    const table = page.getByRole('table', { name: /keys/i });
    const row = table.getByRole('row').filter({ hasText: 'a key for the nightly import scripts' });
    await row.waitFor();
    const frame = table.locator('xpath=..');
    const scroll = await frame.evaluate((element) => {
      const box = element as unknown as { scrollWidth: number; clientWidth: number };
      return { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth };
    });
    expect(scroll.scrollWidth).toBeLessThanOrEqual(scroll.clientWidth);
    const remove = row.getByRole('button', { name: /delete/i });
    await remove.scrollIntoViewIfNeeded();
    const box = (await remove.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(narrow.width);
    expect(box.x).toBeGreaterThanOrEqual(72);
  });

  it('starts with the conversation list folded, which the header unfolds and folds again', async () => {
    const page = await openNarrow('Chat');
    // The screen was opened at 1280 px: reopen it at 720 px, as a narrow window would start.
    await page.reload();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const list = page.getByRole('complementary', { name: 'Conversations' });
    const toggle = page.getByRole('button', { name: 'Show conversations' });
    expect(await list.isVisible()).toBe(false);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const title = (await page.getByRole('heading', { level: 1 }).first().boundingBox())!;
    expect(title.width).toBeGreaterThan(60);

    await toggle.click();
    await list.getByRole('button', { name: longChatTitle, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: longChatTitle }).waitFor();
    // In a narrow window the list lies over the conversation: picking one folds it, and so does Escape.
    await expect.poll(() => list.isVisible()).toBe(false);
    await toggle.click();
    await expectLooksRight(page, [list, page.getByRole('textbox', { name: 'Message' })]);
    await page.keyboard.press('Escape');
    await expect.poll(() => list.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'New chat', exact: true }).count()).toBe(1); // the header's
  });
});

describe('the theme', () => {
  it('follows the system by default, and keeps a choice of light or dark across reloads', async () => {
    const { page } = await ui.open('Chat', { colorScheme: 'light' });
    const theme = page.getByRole('combobox', { name: 'Theme' });
    expect(await theme.inputValue()).toBe('system');
    expect(await background(page)).toBe('rgb(255, 255, 255)');

    await theme.selectOption('dark');
    expect(await background(page)).toBe('rgb(22, 24, 28)');
    await expectLooksRight(page);
    await page.reload();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.getByRole('combobox', { name: 'Theme' }).inputValue()).toBe('dark');
    expect(await background(page)).toBe('rgb(22, 24, 28)');

    await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
    expect(await background(page)).toBe('rgb(255, 255, 255)');
  });

  it('shows light on a dark system when chosen', async () => {
    const { page } = await ui.open('Keys', { colorScheme: 'dark' });
    expect(await background(page)).toBe('rgb(22, 24, 28)');
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');
    expect(await background(page)).toBe('rgb(255, 255, 255)');
    await expectLooksRight(page);
  });
});

describe('the keyboard', () => {
  it('reaches the message box through a skip link, before any of the conversations', async () => {
    const { page } = await ui.open('Chat');
    await page.reload();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const skip = page.getByRole('button', { name: 'Skip to the message box' });
    const conversations = page.getByRole('complementary', { name: 'Conversations' });
    let presses = 0;
    while (!(await hasFocus(skip))) {
      await page.keyboard.press('Tab');
      presses += 1;
      expect(await conversations.evaluate((list) => list.contains(list.ownerDocument.activeElement))).toBe(false);
      expect(presses, 'the skip link comes right after the navigation').toBeLessThanOrEqual(10);
    }
    const box = (await skip.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0); // shown while it has the focus
    await page.keyboard.press('Enter');
    expect(await hasFocus(page.getByRole('textbox', { name: 'Message' }))).toBe(true);
  });
});
