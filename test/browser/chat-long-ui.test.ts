// A conversation far longer than the window, as a person sees it: every message box at its full height, none
// drawn over another, the newest in view when the conversation opens, and the list scrolling to the oldest. At
// 720 and 1920 px wide, light and dark, for 40 messages mixing code, wide tables, images, tool calls and errors.

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectLooksRight } from './a11y.js';
import { longChatShape, longChatTitle, seedLongConversation } from './long-chat-seed.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

beforeAll(async () => {
  ui = await startUi({ prepare: (dataDir) => seedLongConversation(dataDir).then(() => undefined) });
}, 120_000);

closeAfterTests(() => ui);

interface Box {
  label: string;
  top: number;
  bottom: number;
  left: number;
  right: number;
  /** The content's height beyond the box's own: > 0 when the box was squashed and clips what it holds. */
  clippedBy: number;
}

interface ListGeometry {
  boxes: Box[];
  list: { top: number; bottom: number; scrollTop: number; scrollHeight: number; clientHeight: number };
}

// The little of the DOM the in-page code uses (the tests are type-checked without the DOM library).
interface PageElement {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  textContent: string | null;
  getBoundingClientRect(): { top: number; bottom: number; left: number; right: number };
  querySelectorAll(selector: string): Iterable<PageElement>;
}

function geometry(page: Page): Promise<ListGeometry> {
  return page.getByRole('log', { name: 'Messages' }).evaluate((element) => {
    const list = element as unknown as PageElement;
    const boxes = [...list.querySelectorAll('article')].map((article) => {
      const box = article.getBoundingClientRect();
      return {
        label: (article.textContent ?? '').slice(0, 50),
        top: box.top,
        bottom: box.bottom,
        left: box.left,
        right: box.right,
        clippedBy: article.scrollHeight - article.clientHeight,
      };
    });
    const box = list.getBoundingClientRect();
    return {
      boxes,
      list: {
        top: box.top,
        bottom: box.bottom,
        scrollTop: list.scrollTop,
        scrollHeight: list.scrollHeight,
        clientHeight: list.clientHeight,
      },
    };
  });
}

async function openLongChat(colorScheme: 'light' | 'dark', width: number): Promise<Page> {
  const { page } = await ui.open('Chat', { colorScheme });
  await page.setViewportSize({ width, height: 800 });
  const conversations = page.getByRole('complementary', { name: 'Conversations' });
  if (width < 960) {
    // A narrow window folds the list away: it is opened to pick the conversation.
    await expect.poll(() => conversations.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Show conversations' }).click();
  }
  await conversations.getByRole('button', { name: longChatTitle, exact: true }).click();
  await page.getByRole('log', { name: 'Messages' }).getByText(longChatShape.newestText).waitFor();
  return page;
}

function expectStacked(boxes: Box[]) {
  expect(boxes).toHaveLength(longChatShape.boxes);
  for (const box of boxes) {
    expect(box.bottom - box.top, `"${box.label}" has a height`).toBeGreaterThan(10);
    expect(box.clippedBy, `"${box.label}" is not squashed`).toBeLessThanOrEqual(1);
  }
  for (let index = 1; index < boxes.length; index += 1) {
    const [above, below] = [boxes[index - 1]!, boxes[index]!];
    expect(below.top, `"${below.label}" starts below "${above.label}"`).toBeGreaterThanOrEqual(above.bottom - 0.5);
  }
}

describe('a conversation longer than the window', () => {
  for (const width of [720, 1920]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`stacks 40 messages without overlap, opens at the newest and scrolls, at ${width} px in ${colorScheme}`, async () => {
        const page = await openLongChat(colorScheme, width);
        const log = page.getByRole('log', { name: 'Messages' });

        await expect.poll(async () => (await geometry(page)).list.scrollTop).toBeGreaterThan(0);
        const atEnd = await geometry(page);
        expectStacked(atEnd.boxes);
        expect(atEnd.list.scrollHeight).toBeGreaterThan(atEnd.list.clientHeight * 3);
        const newest = atEnd.boxes.at(-1)!;
        expect(newest.label).toContain(longChatShape.newestText);
        expect(newest.top, 'the newest message is in view').toBeGreaterThanOrEqual(atEnd.list.top - 0.5);
        expect(newest.bottom, 'the newest message is in view').toBeLessThanOrEqual(atEnd.list.bottom + 0.5);
        for (const box of atEnd.boxes) {
          expect(box.right - box.left, `"${box.label}" fits the window`).toBeLessThanOrEqual(width);
        }
        await ui.screenshot(page, `chat-long-${width}-${colorScheme}-end`);
        await expectLooksRight(page, [log.getByText(longChatShape.newestText)]);

        await log.evaluate((element) => {
          (element as unknown as PageElement).scrollTop = 0;
        });
        const atStart = await geometry(page);
        expectStacked(atStart.boxes);
        const oldest = atStart.boxes[0]!;
        expect(oldest.top, 'the oldest message is in view at the top').toBeGreaterThanOrEqual(atStart.list.top - 0.5);
        expect(oldest.top).toBeLessThan(atStart.list.bottom);
        expect(newest.label).toContain(longChatShape.newestText);
        expect(atStart.boxes.at(-1)!.top, 'the newest is scrolled away').toBeGreaterThan(atStart.list.bottom);
        await expect.poll(() => page.getByRole('alert').filter({ hasText: 'rate limited' }).count()).toBe(2);

        // A tool call, opened, shows its whole result: no box scrolling inside the scrolling transcript.
        const toolCall = log.getByRole('region', { name: 'Tool call everything / echo' }).first();
        await toolCall.locator('summary').click();
        const result = toolCall.getByLabel('Result');
        await result.getByText('line 39 of the echo of round 3').waitFor();
        const size = await result.evaluate((element) => {
          const box = element as unknown as PageElement;
          return { scrollHeight: box.scrollHeight, clientHeight: box.clientHeight };
        });
        expect(size.scrollHeight).toBeLessThanOrEqual(size.clientHeight + 1);
        expectStacked((await geometry(page)).boxes);
        await ui.screenshot(page, `chat-long-${width}-${colorScheme}-start`);
      });
    }
  }
});
