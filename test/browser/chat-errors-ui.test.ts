// Errors in the chat as a person reads them: a failed reply (the seeded ones and one refused live by the provider
// for its key), a failed tool call and the notices under the transcript, each with text at WCAG AA contrast (4.5:1)
// against the background really behind it, in light and dark, and a failed reply saying what to do.

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { rejectKey } from '../support/fake-openai.js';
import { type ScriptedUpstream } from '../chat/scripted-upstream.js';
import { expectLooksRight } from './a11y.js';
import { textContrast } from './contrast.js';
import { longChatTitle, seedLongConversation } from './long-chat-seed.js';
import { useChatUi } from './chat-ui-harness.js';
import { type UiHarness } from './ui-harness.js';

let ui: UiHarness;
let upstream: ScriptedUpstream;

useChatUi((started) => ({ ui, upstream } = started), {
  apiKey: 'sk-upstream-test',
  prepare: async (dataDir) => {
    await seedLongConversation(dataDir);
  },
});

async function openLongChat(page: Page) {
  await page
    .getByRole('complementary', { name: 'Conversations' })
    .getByRole('button', { name: longChatTitle, exact: true })
    .click();
  await page.getByRole('log', { name: 'Messages' }).getByRole('alert').first().waitFor();
}

describe('errors in the chat', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`are readable (4.5:1) and say what to do, in ${colorScheme}`, async () => {
      const { page } = await ui.open('Chat', { colorScheme });
      await openLongChat(page);
      const log = page.getByRole('log', { name: 'Messages' });

      const storedFailure = log.getByRole('alert').filter({ hasText: 'rate limited' }).first();
      await storedFailure.scrollIntoViewIfNeeded();
      const stored = await textContrast(storedFailure);
      expect(stored.ratio, `${stored.color} on ${stored.background}`).toBeGreaterThanOrEqual(4.5);

      const failedTool = log.locator('.tool-error').first();
      await failedTool.scrollIntoViewIfNeeded();
      for (const text of [failedTool.locator('.tool-state'), failedTool.getByLabel('Result')]) {
        const contrast = await textContrast(text);
        expect(contrast.ratio, `${contrast.color} on ${contrast.background}`).toBeGreaterThanOrEqual(4.5);
      }

      // A provider refusing its key, live: the reply says so and where to fix it.
      upstream.script(rejectKey());
      await page.getByRole('button', { name: 'New chat', exact: true }).first().click();
      const message = page.getByRole('textbox', { name: 'Message' });
      await message.fill(`Hello in ${colorScheme}`);
      await message.press('Enter');
      const failure = log.getByRole('alert');
      await failure.waitFor();
      await expect
        .poll(() => failure.textContent())
        .toBe(
          'Provider "fake" rejected its API key (upstream 401). The provider refused the key: check the key of ' +
            'provider "fake" on the Providers screen.',
        );
      expect(
        await page.getByText('Provider "fake" rejected its API key', { exact: false }).count(),
        'said once, with the reply',
      ).toBe(1);
      const live = await textContrast(failure);
      expect(live.ratio, `${live.color} on ${live.background}`).toBeGreaterThanOrEqual(4.5);
      await ui.screenshot(page, `chat-error-${colorScheme}`);
      await expectLooksRight(page, [failure]);

      // A notice under the transcript: an image pasted for a model that takes none.
      await message.evaluate((element) => {
        type Dom = {
          DataTransfer: new () => { items: { add(file: unknown): void } };
          File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
          ClipboardEvent: new (type: string, init: unknown) => unknown;
        };
        const dom = globalThis as unknown as Dom;
        const data = new dom.DataTransfer();
        data.items.add(new dom.File(['png'], 'picture.png', { type: 'image/png' }));
        const paste = new dom.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
        (element as unknown as { dispatchEvent(event: unknown): void }).dispatchEvent(paste);
      });
      const notice = page.locator('.composer-notices .notice').filter({ hasText: 'does not accept images' });
      await expect.poll(() => notice.textContent()).toBe('fake/scripted-1 does not accept images (picture.png).');
      const notices = page.locator('.composer-notices .notice');
      for (const each of await notices.all()) {
        const contrast = await textContrast(each);
        expect(contrast.ratio, `${contrast.color} on ${contrast.background}`).toBeGreaterThanOrEqual(4.5);
      }
    });
  }
});
