// Finding one's way in the chat, as a person does it: the transcript's scrolling while a slow reply streams (sending
// goes to the newest message, reading earlier text is never pulled away, "Jump to latest" goes back), and the
// open conversation kept in the address (other screens and back, a reload, back and forward, an unknown one).

import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/bridge/types.js';
import { expectLooksRight } from './a11y.js';
import { longChatTitle, seedLongConversation } from './long-chat-seed.js';
import { useChatUi } from './chat-ui-harness.js';
import { openConversation, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

useChatUi((started) => ({ ui } = started), {
  upstream: { slowPieceMs: 50 },
  apiKey: 'sk-upstream-test',
  prepare: async (dataDir) => {
    await seedLongConversation(dataDir);
  },
});

// The little of the DOM the in-page code uses (the tests are type-checked without the DOM library).
interface ScrollBox {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  getBoundingClientRect(): { top: number; bottom: number };
}

interface Scroll {
  scrollTop: number;
  /** How far the end of the transcript is below the window's foot. */
  fromBottom: number;
}

function scrollOf(log: Locator): Promise<Scroll> {
  return log.evaluate((element) => {
    const box = element as unknown as ScrollBox;
    return { scrollTop: box.scrollTop, fromBottom: box.scrollHeight - box.scrollTop - box.clientHeight };
  });
}

/** Whether the element is inside the transcript's window. */
async function inView(log: Locator, element: Locator): Promise<boolean> {
  const [outer, inner] = [await log.boundingBox(), await element.boundingBox()];
  return !!outer && !!inner && inner.y >= outer.y - 1 && inner.y + inner.height <= outer.y + outer.height + 1;
}

describe('the transcript while a reply streams', () => {
  it('goes to the newest message on send, follows only at the bottom, and jumps to the latest', async () => {
    const { page } = await ui.open('Chat', { colorScheme: 'dark' });
    await openConversation(page, longChatTitle);
    const log = page.getByRole('log', { name: 'Messages' });
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    await expect.poll(async () => (await scrollOf(log)).fromBottom).toBeLessThan(2);
    expect(await jump.count(), 'no jump button at the bottom').toBe(0);

    await log.evaluate((element) => {
      (element as unknown as ScrollBox).scrollTop = 0;
    });
    await jump.waitFor();

    // Sending while scrolled up: the message and its reply come into view.
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('a slow story please');
    await message.press('Enter');
    const sent = log.getByRole('article', { name: 'Your message' }).filter({ hasText: 'a slow story please' });
    await expect.poll(() => inView(log, sent)).toBe(true);
    const reply = log.getByRole('article', { name: 'Assistant message' }).last();
    await reply.getByText(/word3 /).waitFor();
    await expect.poll(async () => (await scrollOf(log)).fromBottom).toBeLessThan(2);
    expect(await jump.count()).toBe(0);
    // While at the bottom, the view follows the reply.
    const length = async () => (await reply.textContent())?.length ?? 0;
    const before = await length();
    await expect.poll(length).toBeGreaterThan(before + 40);
    expect((await scrollOf(log)).fromBottom, 'followed the reply').toBeLessThan(2);

    // Scrolled up to read: the reply grows below, the text being read stays put.
    await log.evaluate((element) => {
      (element as unknown as ScrollBox).scrollTop -= 300;
    });
    const reading = await scrollOf(log);
    await jump.waitFor();
    // Until the reply has grown by lines below what is being read.
    await expect.poll(async () => (await scrollOf(log)).fromBottom).toBeGreaterThan(reading.fromBottom + 20);
    expect((await scrollOf(log)).scrollTop, 'the text being read was not pulled away').toBe(reading.scrollTop);
    await ui.screenshot(page, 'chat-jump-to-latest-dark');
    await expectLooksRight(page, [jump]);

    await jump.click();
    await expect.poll(async () => (await scrollOf(log)).fromBottom).toBeLessThan(2);
    expect(await jump.count(), 'the button leaves at the bottom').toBe(0);
    const atJump = await length();
    await expect.poll(length).toBeGreaterThan(atJump + 40);
    expect((await scrollOf(log)).fromBottom, 'following again').toBeLessThan(2);
    await page.getByRole('button', { name: 'Stop' }).click();
  });
});

describe('the open conversation in the address', () => {
  it('survives other screens and a reload, moves with back and forward, and says when it is not found', async () => {
    const { conversation: second } = await ui.invoke<{ conversation: Conversation }>('chat:create-conversation', {
      model: 'fake/scripted-1',
    });
    await ui.invoke('chat:rename-conversation', { id: second.id, title: 'Second thoughts' });
    const { page } = await ui.open('Chat', { colorScheme: 'light' });
    const navigation = page.getByRole('navigation', { name: 'Main' });
    const heading = page.getByRole('heading', { level: 1 }).first();

    await openConversation(page, longChatTitle);
    expect(new URL(page.url()).hash).toBe('#/chat/long-chat');

    await navigation.getByRole('button', { name: 'Providers', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Providers' }).waitFor();
    await navigation.getByRole('button', { name: 'Chat', exact: true }).click();
    await expect.poll(() => heading.textContent()).toBe(longChatTitle);
    await page.getByRole('log', { name: 'Messages' }).getByText('The last word of the afternoon.').waitFor();

    await page.reload();
    await expect.poll(() => heading.textContent()).toBe(longChatTitle);
    expect(new URL(page.url()).hash).toBe('#/chat/long-chat');

    await openConversation(page, 'Second thoughts');
    expect(new URL(page.url()).hash).toBe(`#/chat/${second.id}`);
    await page.goBack();
    await expect.poll(() => heading.textContent()).toBe(longChatTitle);
    await page.goForward();
    await expect.poll(() => heading.textContent()).toBe('Second thoughts');

    await page.goto(new URL('/#/chat/no-such-conversation', page.url()).href);
    await page.getByRole('heading', { level: 1, name: 'Conversation not found' }).waitFor();
    await expectLooksRight(page, [page.getByRole('button', { name: 'Start a new chat' })]);
    await page.getByRole('button', { name: 'Start a new chat' }).click();
    await expect.poll(() => heading.textContent()).toBe('New chat');
    expect(new URL(page.url()).hash).toBe('#/chat');

    // A conversation deleted while open leaves its address for a new chat.
    await openConversation(page, 'Second thoughts');
    await ui.invoke('chat:delete-conversation', { id: second.id });
    await expect.poll(() => heading.textContent()).toBe('New chat');
    expect(new URL(page.url()).hash).toBe('#/chat');
  });
});
