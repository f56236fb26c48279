// Narrow windows on the Keys and MCP screens: at 800 px the keys stack as cards whose state and actions are in
// sight without scrolling sideways (at 1280 px they stay a table), the chat's own key says what it is, and a long
// command line wraps inside the MCP "Start …?" and import confirmations at 720 px instead of running past them.

import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectLooksRight } from './a11y.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

beforeAll(async () => {
  ui = await startUi();
  await ui.invoke('keys:create', { name: 'reports' });
  await ui.invoke('keys:create', {
    name: 'nightly batch job with a long name',
    limit: 25,
    limit_reset: 'monthly',
    requests_per_minute: 60,
    tokens_per_minute: 100_000,
    allowed_models: ['openai/gpt-4o-mini', 'anthropic/claude-3-5-haiku-latest', 'google/gemini-2.0-flash'],
  });
  // The key the chat makes for itself on its first message.
  await ui.invoke('keys:create', { name: 'Switchyard Chat' });
}, 120_000);

closeAfterTests(() => ui);

async function openAt(screen: string, colorScheme: 'light' | 'dark', width: number): Promise<Page> {
  const page = await ui.newPage({ colorScheme, width });
  await page.goto(ui.uiUrl);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: screen, exact: true }).click();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  return page;
}

/** `inner` lies within `outer`, edges included (half a pixel of rounding allowed). */
async function expectInside(inner: Locator, outer: Locator, what: string) {
  const a = (await inner.boundingBox())!;
  const b = (await outer.boundingBox())!;
  expect(a.x, `${what}: left edge`).toBeGreaterThanOrEqual(b.x - 0.5);
  expect(a.x + a.width, `${what}: right edge`).toBeLessThanOrEqual(b.x + b.width + 0.5);
}

/** Whether the element's content is wider than the element (it scrolls or spills sideways). */
const overflowsSideways = (locator: Locator) =>
  locator.evaluate((element) => element.scrollWidth > element.clientWidth + 1);

describe('the keys at 800 px and 1280 px', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`shows every key's state and actions without scrolling sideways at 800 px (${colorScheme})`, async () => {
      const page = await openAt('Keys', colorScheme, 800);
      const table = page.getByRole('table', { name: 'API keys' });
      await table.getByRole('cell', { name: 'reports', exact: true }).waitFor();
      // The table's frame, which scrolls sideways when the table is wider.
      const frame = page.locator('.table-wrap').filter({ has: table });
      expect(await overflowsSideways(frame)).toBe(false);
      for (const name of ['reports', 'nightly batch job with a long name', 'Switchyard Chat']) {
        const row = table.getByRole('row').filter({ has: page.getByRole('button', { name: `Edit ${name}` }) });
        await expectInside(row.getByText('active', { exact: true }), frame, `${name}'s state`);
        await expectInside(page.getByRole('button', { name: `Edit ${name}` }), frame, `Edit ${name}`);
        await expectInside(page.getByRole('button', { name: `Delete ${name}` }), frame, `Delete ${name}`);
        // Each cell is named by its column where the header row is out of sight.
        expect(await row.getByRole('cell', { name: 'State active', exact: true }).count()).toBe(1);
      }
      await ui.screenshot(page, `keys-800-${colorScheme}`);
      await expectLooksRight(page, [page.getByRole('button', { name: 'Delete Switchyard Chat' })]);
    });
  }

  it('stays a table with its header row at 1280 px, without scrolling sideways', async () => {
    const page = await openAt('Keys', 'light', 1280);
    const table = page.getByRole('table', { name: 'API keys' });
    await table.getByRole('cell', { name: 'reports', exact: true }).waitFor();
    expect(await table.getByRole('columnheader', { name: 'State' }).isVisible()).toBe(true);
    expect(await overflowsSideways(page.locator('.table-wrap').filter({ has: table }))).toBe(false);
    await expectLooksRight(page, [page.getByRole('button', { name: 'Delete reports' })]);
  });

  it("explains the chat's own key where it is listed", async () => {
    const page = await openAt('Keys', 'light', 1280);
    const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Edit Switchyard Chat' }) });
    await row.waitFor();
    expect(await row.textContent()).toContain("This app's Chat sends its requests through the gateway with this key");
    const other = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Edit reports' }) });
    expect(await other.textContent()).not.toContain("This app's Chat");
  });
});

// A server whose program sits deep in a folder and takes long arguments: nothing in it to break at but spaces
// and slashes.
const longCommand = `/opt/${'very-long-folder-name/'.repeat(6)}bin/mcp-server-with-a-long-name`;
const longArgs = [`--config=/home/someone/${'settings-folder/'.repeat(5)}server.json`, '--verbose'];

async function expectWrappedInside(page: Page, dialog: Locator) {
  const shown = dialog.getByRole('list', { name: 'What will run' }).locator('pre').first();
  await shown.waitFor();
  expect(await shown.textContent()).toContain('mcp-server-with-a-long-name');
  await expectInside(shown, dialog, 'the command line');
  await expectInside(dialog, page.locator('body'), 'the dialog');
  expect(await overflowsSideways(shown)).toBe(false);
  expect(await overflowsSideways(dialog)).toBe(false);
  // Wrapped, so several lines tall.
  expect((await shown.boundingBox())!.height).toBeGreaterThan(40);
  await expectLooksRight(page, [dialog.getByRole('button', { name: 'Cancel' })]);
}

describe('a long command line at 720 px', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`wraps inside the "Start …?" confirmation (${colorScheme})`, async () => {
      const page = await openAt('MCP', colorScheme, 720);
      await page.getByRole('button', { name: 'Add server', exact: true }).first().click();
      const form = page.getByRole('dialog', { name: 'Add an MCP server' });
      await form.getByLabel('Name', { exact: true }).fill('deep');
      await form.getByLabel('Command', { exact: true }).fill(longCommand);
      await form.getByLabel('Arguments', { exact: true }).fill(longArgs.join('\n'));
      await form.getByRole('button', { name: 'Add server' }).click();
      const confirm = page.getByRole('dialog', { name: 'Start deep?' });
      await expectWrappedInside(page, confirm);
      await ui.screenshot(page, `mcp-confirm-long-${colorScheme}-720`);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
    });

    it(`wraps inside the import confirmation (${colorScheme})`, async () => {
      const page = await openAt('MCP', colorScheme, 720);
      const config = { mcpServers: { deep: { command: longCommand, args: longArgs } } };
      await page.getByLabel('Config file to import').setInputFiles({
        name: 'claude_desktop_config.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(config)),
      });
      const confirm = page.getByRole('dialog', { name: 'Import this server from claude_desktop_config.json?' });
      await expectWrappedInside(page, confirm);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
    });
  }
});
