// Versions of a message, as a person uses them in the browser against `switchyard serve` and the scripted upstream:
// a regenerated reply and an edited message show "2 / 2" with previous / next arrows (mouse and keyboard); each
// version shows its own continuation, the choice survives a reload, the next request sends the shown path, and
// deleting the shown version shows the other one — in light and dark, at 720 px and 1280 px.

import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { everythingSettings } from '../chat/chat-test-app.js';
import { type ScriptedUpstream } from '../chat/scripted-upstream.js';
import { waitFor } from '../support/wait-for.js';
import { expectLooksRight } from './a11y.js';
import { useChatUi } from './chat-ui-harness.js';
import { chatAtWidth, conversationList, hasFocus, newChat, type UiHarness } from './ui-harness.js';

let upstream: ScriptedUpstream;
let ui: UiHarness;

useChatUi((started) => ({ ui, upstream } = started), {
  prepare: async (dataDir) => {
    fs.writeFileSync(path.join(dataDir, 'mcp_settings.json'), JSON.stringify(everythingSettings()));
  },
});

async function openChat(colorScheme: 'light' | 'dark', width: number): Promise<Page> {
  const { page } = await ui.open('Chat', { colorScheme });
  await chatAtWidth(page, width);
  await poll(() => page.getByRole('combobox', { name: 'Model', exact: true }).inputValue()).toBe('fake/scripted-1');
  return page;
}

/** Polls as a person waits: a switch is a round trip to the server and a new transcript drawn. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000 });

const transcript = (page: Page) => page.getByRole('log', { name: 'Messages' });
const replies = (page: Page) => transcript(page).getByRole('article', { name: 'Assistant message' });
const questions = (page: Page) => transcript(page).getByRole('article', { name: 'Your message' });
const userTexts = (page: Page) => transcript(page).locator('.user-text').allTextContents();

/** Sends `text` and waits for its answer to be written. */
async function send(page: Page, text: string): Promise<void> {
  const requests = upstream.chatRequests().length;
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await waitFor(() => upstream.chatRequests().length > requests, { what: `the request for "${text}"` });
  await settled(page);
}

async function settled(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Send' }).waitFor();
  await poll(() => replies(page).locator('[aria-busy="true"]').count()).toBe(0);
}

async function startChat(page: Page, text: string): Promise<void> {
  await newChat(page);
  await send(page, text);
}

/** The switcher of a message: its group, its arrows and the "n / m" it reads. */
function switcher(message: Locator) {
  const group = message.getByRole('group', { name: /^Version \d+ of \d+ of this/ });
  return {
    group,
    previous: group.getByRole('button', { name: 'Previous version' }),
    next: group.getByRole('button', { name: 'Next version' }),
    position: () => group.locator('.version-position').textContent(),
  };
}

/** The switcher is seen without hovering, inside its message and beside (not over) the message's actions. */
async function expectSwitcherLaidOut(page: Page, message: Locator, actionsName: string) {
  await page.mouse.move(0, 0);
  const { group } = switcher(message);
  expect(await group.evaluate((element) => element.ownerDocument.defaultView!.getComputedStyle(element).opacity)).toBe(
    '1',
  );
  const box = (await group.boundingBox())!;
  const article = (await message.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(article.x - 1);
  expect(box.x + box.width).toBeLessThanOrEqual(article.x + article.width + 1);
  const actions = (await message.getByRole('group', { name: actionsName }).boundingBox())!;
  const apart = box.x + box.width <= actions.x + 1 || actions.x + actions.width <= box.x + 1;
  const stacked = box.y + box.height <= actions.y + 1 || actions.y + actions.height <= box.y + 1;
  expect(apart || stacked, 'the switcher and the actions do not overlap').toBe(true);
}

describe('versions of a message', () => {
  for (const [colorScheme, width] of [
    ['light', 1280],
    ['dark', 720],
  ] as const) {
    it(`steps through a regenerated reply’s versions, each with its own continuation (${colorScheme}, ${width} px)`, async () => {
      const page = await openChat(colorScheme, width);
      await startChat(page, `Hello versions ${colorScheme}`);
      await send(page, 'second question');
      const firstReplyBefore = await replies(page).first().getAttribute('aria-label');
      expect(firstReplyBefore).toBe('Assistant message');
      expect(await switcher(replies(page).first()).group.count()).toBe(0);

      await replies(page).first().getByRole('button', { name: 'Regenerate reply' }).click();
      await poll(() => switcher(replies(page).first()).position()).toBe('2 / 2');
      await settled(page);
      expect(await userTexts(page)).toEqual([`Hello versions ${colorScheme}`]);
      const reply = switcher(replies(page).first());
      expect(await reply.group.getAttribute('aria-label')).toBe('Version 2 of 2 of this reply');
      expect(await reply.next.isDisabled()).toBe(true);
      await expectSwitcherLaidOut(page, replies(page).first(), 'Reply actions');
      await ui.screenshot(page, `chat-versions-${colorScheme}-${width}`);
      await expectLooksRight(page, [reply.group, reply.previous]);

      // Version 1, with the question and answer that followed it.
      await reply.previous.click();
      await poll(() => userTexts(page)).toEqual([`Hello versions ${colorScheme}`, 'second question']);
      expect(await switcher(replies(page).first()).position()).toBe('1 / 2');
      // Previous is now disabled: the focus stays on the switcher, on Next, and Enter goes back.
      const first = switcher(replies(page).first());
      await poll(() => hasFocus(first.next)).toBe(true);
      await page.keyboard.press('Enter');
      await poll(() => userTexts(page)).toEqual([`Hello versions ${colorScheme}`]);
      await poll(() => hasFocus(switcher(replies(page).first()).previous)).toBe(true);
      await page.keyboard.press('Enter');
      await poll(() => userTexts(page)).toEqual([`Hello versions ${colorScheme}`, 'second question']);

      // The choice is stored: a reload shows version 1 again, and the next request sends exactly what is shown.
      await page.reload();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // A narrow window starts with the list folded.
      await (
        await conversationList(page)
      )
        .getByRole('button', { name: `Hello versions ${colorScheme}` })
        .first()
        .click();
      await poll(() => userTexts(page)).toEqual([`Hello versions ${colorScheme}`, 'second question']);
      expect(await switcher(replies(page).first()).position()).toBe('1 / 2');
      await send(page, 'third question');
      expect(
        upstream
          .chatRequests()
          .at(-1)
          ?.body?.messages?.map((message) => message.role),
      ).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
      expect(
        upstream
          .chatRequests()
          .at(-1)
          ?.body?.messages?.filter((message) => message.role === 'user')
          .map((message) => message.content),
      ).toEqual([`Hello versions ${colorScheme}`, 'second question', 'third question']);
    });
  }

  it('regenerates a reply whose tool call waits for approval: the call is stopped in the old version', async () => {
    const page = await openChat('dark', 1280);
    await page.getByRole('button', { name: 'New chat', exact: true }).first().click();
    await page.getByRole('complementary', { name: 'Conversations' }).locator('[aria-current="true"]').waitFor();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('please echo plum');
    await box.press('Enter');
    const card = () => replies(page).first().getByRole('group', { name: 'Approve echo on everything' });
    await card().waitFor({ timeout: 20_000 });
    // Waiting for a decision, the reply can be regenerated (deleting still waits for the turn).
    const regenerate = replies(page).first().getByRole('button', { name: 'Regenerate reply' });
    expect(await regenerate.isEnabled()).toBe(true);
    expect(
      await replies(page)
        .first()
        .getByRole('button', { name: /^Delete reply/ })
        .isDisabled(),
    ).toBe(true);
    await regenerate.click();

    // The new version asks again; its old version kept its call, answered as stopped.
    await poll(() => switcher(replies(page).first()).position()).toBe('2 / 2');
    await card().waitFor();
    await card().getByRole('button', { name: 'Deny' }).click();
    await settled(page);
    expect(await replies(page).first().locator('.tool-state').textContent()).toBe('denied');
    await expectLooksRight(page, [switcher(replies(page).first()).group]);
    await switcher(replies(page).first()).previous.click();
    await poll(() => switcher(replies(page).first()).position()).toBe('1 / 2');
    expect(await replies(page).first().locator('.tool-state').textContent()).toBe('stopped');
    expect(await replies(page).count()).toBe(1);
  });

  it('shows an edited message’s versions, and deleting the shown version shows the other', async () => {
    const page = await openChat('light', 720);
    await startChat(page, 'colour of the sky?');
    await questions(page).first().getByRole('button', { name: 'Edit message' }).click();
    await page.getByRole('textbox', { name: 'Edit message' }).fill('colour of grass?');
    await page.getByRole('button', { name: 'Send', exact: true }).first().click();
    await poll(() => switcher(questions(page).first()).position()).toBe('2 / 2');
    await settled(page);
    expect(await userTexts(page)).toEqual(['colour of grass?']);
    expect(await switcher(questions(page).first()).group.getAttribute('aria-label')).toBe(
      'Version 2 of 2 of this message',
    );
    await expectSwitcherLaidOut(page, questions(page).first(), 'Message actions');
    await expectLooksRight(page, [switcher(questions(page).first()).group]);

    // Deleting says it takes what follows, then the other version is shown with its reply.
    const requests = upstream.chatRequests().length;
    await questions(page).first().getByRole('button', { name: 'Delete message and everything after it' }).click();
    await questions(page).first().getByText('Delete with all after it?').waitFor();
    await questions(page)
      .first()
      .getByRole('button', { name: 'Confirm delete message and everything after it' })
      .click();
    await poll(() => userTexts(page)).toEqual(['colour of the sky?']);
    expect(await replies(page).count()).toBe(1);
    expect(await switcher(questions(page).first()).group.count()).toBe(0);
    await waitFor(() => upstream.chatRequests().length === requests, { what: 'no new request' });
  });
});
