// The actions on each message, as a person uses them in the browser against `switchyard serve` and the scripted
// upstream: copy a message, a reply and a code block; regenerate a reply, also with another model; edit a message
// of one's own and send it again; delete a reply and a message; Escape stops a reply being written.

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { defaultAnswer, type ScriptedUpstream } from '../chat/scripted-upstream.js';
import { waitFor } from '../support/wait-for.js';
import { expectLooksRight } from './a11y.js';
import { useChatUi } from './chat-ui-harness.js';
import { readClipboard, type UiHarness } from './ui-harness.js';

let upstream: ScriptedUpstream;
let ui: UiHarness;

useChatUi((started) => ({ ui, upstream } = started), { upstream: { slowPieceMs: 80 } });

async function openChat(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const { page } = await ui.open('Chat', { colorScheme, permissions: ['clipboard-read', 'clipboard-write'] });
  await expect
    .poll(() => page.getByRole('combobox', { name: 'Model', exact: true }).inputValue())
    .toBe('fake/scripted-1');
  return page;
}

async function startChat(page: Page, text: string): Promise<void> {
  await page.getByRole('button', { name: 'New chat', exact: true }).first().click();
  await page.getByRole('complementary', { name: 'Conversations' }).locator('[aria-current="true"]').waitFor();
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill(text);
  await message.press('Enter');
}

const transcript = (page: Page) => page.getByRole('log', { name: 'Messages' });
const replies = (page: Page) => transcript(page).getByRole('article', { name: 'Assistant message' });
const questions = (page: Page) => transcript(page).getByRole('article', { name: 'Your message' });

/** Waits until the conversation is idle again (Send is back) and answers the replies' texts. */
async function settledReplies(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Send' }).waitFor();
  await expect.poll(() => replies(page).locator('[aria-busy="true"]').count()).toBe(0);
  return replies(page).allTextContents();
}

describe('the actions on a message', () => {
  it('copies a message, a reply and a code block', async () => {
    const page = await openChat();
    await startChat(page, 'Hello there');
    await replies(page).first().getByText('const answer = 42;').waitFor();
    await settledReplies(page);

    await questions(page).first().getByRole('button', { name: 'Copy message' }).click();
    await expect.poll(() => readClipboard(page)).toBe('Hello there');
    await replies(page).first().getByRole('button', { name: 'Copy reply' }).click();
    await expect.poll(() => readClipboard(page)).toBe(defaultAnswer);
    const code = replies(page).first().locator('pre');
    await code.hover();
    await replies(page).first().getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(() => readClipboard(page)).toBe('const answer = 42;');
    await ui.screenshot(page, 'chat-actions-light');
    await expectLooksRight(page, [replies(page).first().getByRole('button', { name: 'Regenerate reply' })]);
  });

  it('regenerates a reply, then with another model, which the conversation keeps', async () => {
    const page = await openChat('dark');
    await startChat(page, 'Hello again');
    await settledReplies(page);
    const requestsBefore = upstream.chatRequests().length;

    await replies(page).first().getByRole('button', { name: 'Regenerate reply' }).click();
    await waitFor(() => upstream.chatRequests().length > requestsBefore, { what: 'the regenerated request' });
    // The old reply leaves before the new one is drawn: wait for the one reply that replaces it to settle.
    await expect.poll(async () => (await settledReplies(page)).length).toBe(1);

    await replies(page)
      .first()
      .getByRole('combobox', { name: 'Regenerate with another model' })
      .selectOption('fake/scripted-vision');
    await expect.poll(() => replies(page).first().locator('.meta-model').textContent()).toBe('fake/scripted-vision');
    const texts = await settledReplies(page);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('const answer = 42;');
    expect(upstream.chatRequests().at(-1)?.body?.model).toBe('scripted-vision');
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Model', exact: true }).inputValue())
      .toBe('fake/scripted-vision');
    expect(await questions(page).allTextContents()).toEqual(['Hello again']);
    await ui.screenshot(page, 'chat-regenerated-dark');
    await expectLooksRight(page, [replies(page).first().getByRole('button', { name: 'Delete reply' })]);
  });

  it('edits a message in place and sends it again; Escape cancels an edit', async () => {
    const page = await openChat();
    await startChat(page, 'Hello there');
    await settledReplies(page);

    await questions(page).first().getByRole('button', { name: 'Edit message' }).click();
    const editor = page.getByRole('textbox', { name: 'Edit message' });
    expect(await editor.inputValue()).toBe('Hello there');
    await editor.fill('never mind');
    await editor.press('Escape');
    await expect.poll(() => editor.count()).toBe(0);
    expect(await questions(page).allTextContents()).toEqual(['Hello there']);

    await questions(page).first().getByRole('button', { name: 'Edit message' }).click();
    await editor.fill('Please think about it');
    await page.getByRole('button', { name: 'Send', exact: true }).first().click();
    await replies(page).first().getByText('Thought it through.').waitFor();
    await settledReplies(page);
    // The edit is a second version of the message (chat-versions-ui.test.ts steps through them).
    expect(await questions(page).locator('.user-text').allTextContents()).toEqual(['Please think about it']);
    expect(await questions(page).getByRole('group', { name: 'Version 2 of 2 of this message' }).count()).toBe(1);
    expect(await replies(page).count()).toBe(1);
    expect(upstream.chatRequests().at(-1)?.body?.messages).toEqual([
      { role: 'user', content: 'Please think about it' },
    ]);
  });

  it('deletes a reply and a message after a second click confirms', async () => {
    const page = await openChat();
    await startChat(page, 'Hello there');
    await settledReplies(page);

    await replies(page).first().getByRole('button', { name: 'Delete reply' }).click();
    expect(await replies(page).count()).toBe(1);
    await replies(page).first().getByRole('button', { name: 'Confirm delete reply' }).click();
    await expect.poll(() => replies(page).count()).toBe(0);
    await questions(page).first().getByRole('button', { name: 'Delete message' }).click();
    await questions(page).first().getByRole('button', { name: 'Confirm delete message' }).click();
    await expect.poll(() => questions(page).count()).toBe(0);
    await transcript(page).getByText('Ask anything.').waitFor();

    // Gone for good: a reload shows the same.
    await page.reload();
    await page
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: 'Hello there' })
      .first()
      .click();
    await transcript(page).getByText('Ask anything.').waitFor();
  });

  it('stops a reply being written with Escape', async () => {
    const page = await openChat();
    const abortedBefore = upstream.abortedCount();
    await startChat(page, 'a slow answer please');
    const answer = replies(page).last();
    await answer.getByText(/word3 /).waitFor();
    await page.getByRole('textbox', { name: 'Message' }).press('Escape');
    await answer.getByText('Stopped', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await waitFor(() => upstream.abortedCount() > abortedBefore, { what: 'the upstream stream to be aborted' });
    expect(await answer.textContent()).not.toContain('word399');
  });
});
