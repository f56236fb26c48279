// Errors in the chat as a person reads them: a failed reply (the seeded ones and one refused live by the provider
// for its key) and a failed tool call, each with text at WCAG AA contrast (4.5:1) against the background really
// behind it, in light and dark, and a failed reply saying what to do.

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { rejectKey } from '../support/fake-openai.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../chat/scripted-upstream.js';
import { expectLooksRight } from './a11y.js';
import { textContrast } from './contrast.js';
import { longChatTitle, seedLongConversation } from './long-chat-seed.js';
import { seedProvider } from './seed.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;
let upstream: ScriptedUpstream;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  ui = await startUi({
    prepare: async (dataDir) => {
      await seedProvider(dataDir, { id: 'fake', baseUrl: upstream.baseUrl, apiKey: 'sk-upstream-test' });
      await seedLongConversation(dataDir);
    },
  });
}, 120_000);

closeAfterTests(
  () => ui,
  () => upstream,
);

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
      const live = await textContrast(failure);
      expect(live.ratio, `${live.color} on ${live.background}`).toBeGreaterThanOrEqual(4.5);
      await ui.screenshot(page, `chat-error-${colorScheme}`);
      await expectLooksRight(page, [failure]);
    });
  }
});
