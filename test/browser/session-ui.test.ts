// A browser tab whose sign-in link no longer works — serve restarted (its cookie holds the old token), the page
// came from a bookmark (no token at all), or an old printed link was opened — says that the link expired and how
// to get a new one, instead of showing empty screens that wait forever. The link `switchyard ui` prints then
// signs the same tab in again.

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { seriousViolations } from './a11y.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

beforeAll(async () => {
  ui = await startUi();
}, 120_000);

closeAfterTests(() => ui);

const newPage = (colorScheme: 'light' | 'dark' = 'light') => ui.newPage({ colorScheme });

async function expectExpiredPage(page: Page): Promise<void> {
  const heading = page.getByRole('heading', { level: 1, name: 'This link has expired' });
  await heading.waitFor();
  expect(await page.getByRole('main').textContent()).toContain('switchyard ui --open');
  expect(await page.getByRole('button', { name: 'Copy the command' }).isVisible()).toBe(true);
  expect(await page.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
  expect(await page.getByText('No conversations yet').count()).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
}

describe('a tab without a valid sign-in link', () => {
  it('from a bookmark (no token): says the link expired and how to get a new one', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await newPage(colorScheme);
      await page.goto(new URL('/', ui.uiUrl).href);
      await expectExpiredPage(page);
      await ui.screenshot(page, `link-expired-${colorScheme}`);
    }
  });

  it('an old printed link (another token) leads to the same page, not to an error body', async () => {
    const page = await newPage();
    const old = new URL(ui.uiUrl);
    old.searchParams.set('token', 'an-old-token-from-before-the-restart');
    await page.goto(old.href);
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expectExpiredPage(page);
  });

  it('an open tab whose server restarted switches to the page at its next call, and a new link signs it in', async () => {
    const page = await newPage();
    await page.goto(ui.uiUrl);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const origin = new URL(ui.uiUrl).origin;
    // What a restart does to the tab: the cookie it holds carries a token the server no longer takes.
    const [cookie] = await page.context().cookies(origin);
    expect(cookie?.name).toMatch(/^switchyard-ui-\d+$/);
    await page.context().addCookies([{ ...cookie!, value: 'token-of-the-previous-start' }]);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Providers' }).click();
    await expectExpiredPage(page);
    expect(await page.getByText('Loading providers').count()).toBe(0);

    const fresh = await runCli(['ui', '--data-dir', ui.dataDir]);
    expect(fresh.code).toBe(0);
    const link = /^Switchyard UI: (\S+)$/m.exec(fresh.stdout)?.[1];
    expect(link).toBe(ui.uiUrl);
    await page.goto(link!);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByRole('heading', { name: 'This link has expired' }).count()).toBe(0);
  });
});
