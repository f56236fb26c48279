// An axe-core audit of every screen and of the dialogs people open most, in light and dark, with data in them:
// no serious or critical violation anywhere. The screens are read from the navigation, so a new one is audited
// without touching this file. Each screen's own test audits it too; this one makes sure none is left out.

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeUpstream } from '../support/fake-openai-upstream.js';
import { seriousViolations } from './a11y.js';
import { requestThroughGateway, useUpstreamUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;
let generationId: string;

useUpstreamUi(
  () => startFakeUpstream({ models: ['echo-1', 'echo-2'] }),
  async (started) => {
    ui = started.ui;
    const { secret } = await ui.invoke<{ secret: string }>('keys:create', { name: 'audited', limit: 5 });
    generationId = await requestThroughGateway(ui, { secret, app: 'Audit' });
  },
  { prices: [{ model: 'fake/echo-1', input: 1, output: 2 }] },
);

/** Waits until nothing on the page is still loading, so that the audit sees the screen as people do. */
async function settled(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page
        .getByRole('status')
        .filter({ hasText: /^Loading/ })
        .count(),
    )
    .toBe(0);
}

async function audit(page: Page, what: string): Promise<void> {
  await settled(page);
  expect(await seriousViolations(page), what).toEqual([]);
}

const themes = ['light', 'dark'] as const;

describe('accessibility', () => {
  it('finds no serious problem on any screen of the navigation, in light and dark', async () => {
    const { page } = await ui.open('Chat');
    const screens = await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? button.textContent));
    const names = screens.map((name) => name?.trim()).filter((name): name is string => Boolean(name));
    expect(names).toEqual(expect.arrayContaining(['Chat', 'Providers', 'MCP', 'Keys', 'Activity', 'Gateway']));
    for (const colorScheme of themes) {
      for (const screen of names) {
        const opened = await ui.open(screen, { colorScheme });
        await audit(opened.page, `${screen} in ${colorScheme}`);
      }
      await ui.closePages();
    }
  }, 180_000);

  it('finds no serious problem in the dialogs people open most, in light and dark', async () => {
    for (const colorScheme of themes) {
      const providers = (await ui.open('Providers', { colorScheme })).page;
      await providers.getByRole('button', { name: 'Add provider', exact: true }).click();
      await providers.getByRole('dialog', { name: 'Add a provider' }).waitFor();
      await audit(providers, `the provider dialog in ${colorScheme}`);

      const keys = (await ui.open('Keys', { colorScheme })).page;
      await keys.getByRole('button', { name: 'Create key', exact: true }).click();
      await keys.getByRole('dialog', { name: 'Create an API key' }).waitFor();
      await audit(keys, `the key dialog in ${colorScheme}`);

      const mcp = (await ui.open('MCP', { colorScheme })).page;
      await mcp.getByRole('button', { name: 'Add server', exact: true }).click();
      await mcp.getByRole('dialog').first().waitFor();
      await audit(mcp, `the MCP server dialog in ${colorScheme}`);

      const activity = (await ui.open('Activity', { colorScheme })).page;
      await activity.getByRole('button', { name: `Details of ${generationId}` }).click();
      await activity
        .getByRole('dialog', { name: `Request ${generationId}` })
        .getByText('Prompt tokens')
        .waitFor();
      await audit(activity, `the request details in ${colorScheme}`);

      const chat = (await ui.open('Chat', { colorScheme })).page;
      await chat.getByRole('combobox', { name: 'Model' }).click();
      await chat.getByRole('listbox', { name: 'Models' }).waitFor();
      await audit(chat, `the model list in ${colorScheme}`);
      await ui.closePages();
    }
  }, 180_000);
});
