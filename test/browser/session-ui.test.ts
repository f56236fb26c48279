// A browser tab whose sign-in link no longer works — serve restarted (its cookie holds the old token), the page
// came from a bookmark (no token at all), or an old printed link was opened — says that the link expired and how
// to get a new one, at once and without first showing the app's empty screens. The link `switchyard ui` prints
// then signs the same tab in again.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer } from '../support/cli.js';
import { waitFor } from '../support/wait-for.js';
import { expectVisible, seriousViolations } from './a11y.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

beforeAll(async () => {
  ui = await startUi();
}, 120_000);

closeAfterTests(() => ui);

const newPage = (colorScheme: 'light' | 'dark' = 'light') => ui.newPage({ colorScheme });

/**
 * Makes the page record, from its first paint, whether the app's navigation was ever put in it (React may replace
 * it before anyone looks, so every added node is checked, not the page as it is later).
 */
async function recordNavigation(page: Page): Promise<() => Promise<boolean>> {
  await page.addInitScript(`
    globalThis.navigationShown = false;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node.nodeType !== 1) continue;
          const selector = 'nav[aria-label="Main"]';
          if (node.matches(selector) || node.querySelector(selector)) globalThis.navigationShown = true;
        }
      }
    }).observe(document, { childList: true, subtree: true });
  `);
  return () => page.evaluate(() => (globalThis as unknown as { navigationShown: boolean }).navigationShown);
}

/**
 * Opens `url` as a refused tab must be shown: with the page's clock stopped, so that no timeout or retry of the page
 * can fire, and the event stream left unanswered. Only the answers to the page's requests can then show the
 * expired page; before, every call waited for the stream or for 3 s, so it never came, and the app's empty
 * navigation was there meanwhile.
 */
async function openRefusedTab(page: Page, url: string): Promise<void> {
  const navigationShown = await recordNavigation(page);
  await page.route('**/bridge/events', () => undefined);
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 60_000);
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: 'This link has expired' }).waitFor({ timeout: 10_000 });
  expect(await navigationShown()).toBe(false);
  await page.clock.resume();
}

async function expectExpiredPage(page: Page): Promise<void> {
  const heading = page.getByRole('heading', { level: 1, name: 'This link has expired' });
  await heading.waitFor();
  expect(await page.getByRole('main').textContent()).toContain('switchyard ui --open');
  await expectVisible(page, [
    heading,
    page.getByText('switchyard ui --open', { exact: true }),
    page.getByRole('button', { name: 'Copy the command' }),
    page.getByRole('button', { name: 'Try again' }),
  ]);
  expect(await page.getByText('No conversations yet').count()).toBe(0);
  expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
}

/** How bright the page's background is as the browser draws it: 0 (black) to 765 (white). */
function backgroundBrightness(page: Page): Promise<number> {
  return page.locator('body').evaluate((body) => {
    const { getComputedStyle } = globalThis as unknown as {
      getComputedStyle(element: unknown): { backgroundColor: string };
    };
    const [red = 0, green = 0, blue = 0] = (getComputedStyle(body).backgroundColor.match(/\d+/g) ?? []).map(Number);
    return red + green + blue;
  });
}

describe('a tab without a valid sign-in link', () => {
  it('from a bookmark (no token): says the link expired and how to get a new one, in light and in dark', async () => {
    const brightness: Record<string, number> = {};
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await newPage(colorScheme);
      await openRefusedTab(page, new URL('/', ui.uiUrl).href);
      await expectExpiredPage(page);
      brightness[colorScheme] = await backgroundBrightness(page);
      await ui.screenshot(page, `link-expired-${colorScheme}`);
    }
    expect(brightness.light).toBeGreaterThan(600);
    expect(brightness.dark).toBeLessThan(200);
  });

  it('an old printed link (another token) leads to the same page, not to an error body', async () => {
    const page = await newPage();
    const old = new URL(ui.uiUrl);
    old.searchParams.set('token', 'an-old-token-from-before-the-restart');
    await openRefusedTab(page, old.href);
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expectExpiredPage(page);
  });

  it('a tab that still holds the cookie of a previous start says so at once', async () => {
    const page = await newPage('dark');
    const origin = new URL(ui.uiUrl).origin;
    await page
      .context()
      .addCookies([
        { name: `switchyard-ui-${new URL(origin).port}`, value: 'token-of-the-previous-start', url: origin },
      ]);
    await openRefusedTab(page, origin);
    await expectExpiredPage(page);
  });

  it(
    'an open tab whose server restarted switches to the page at its next call, and a new link signs it in',
    { retry: 1 },
    async () => {
      const page = await newPage();
      // The page must be quiet before the cookie changes: its event stream open and its first calls answered. A
      // call that leaves later carries the changed cookie, is refused and shows the expired page before the click
      // (what the next describe's test is about), and the click then waits for a navigation that is gone.
      const eventStreamOpen = page.waitForResponse((response) => response.url().endsWith('/bridge/events'));
      const callsInFlight = new Set<unknown>();
      page.on('request', (request) => {
        if (request.url().includes('/bridge/invoke/')) callsInFlight.add(request);
      });
      page.on('requestfinished', (request) => callsInFlight.delete(request));
      page.on('requestfailed', (request) => callsInFlight.delete(request));
      await page.goto(ui.uiUrl);
      await page.getByText('No conversations yet').waitFor();
      expect((await eventStreamOpen).status()).toBe(200);
      await expect.poll(() => callsInFlight.size).toBe(0);
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
    },
  );
});

describe('an open tab whose server restarts', () => {
  it('switches to the expired page by itself, when its event stream comes back refused', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-restart-'));
    const env = { SWITCHYARD_SECRET_STORE: 'file' };
    let server = await startServer(['--data-dir', dataDir], env);
    try {
      const link = await waitFor(() => /Switchyard UI: (\S+)/.exec(server.stdout())?.[1], { what: 'the UI link' });
      const page = await newPage();
      const navigationShown = await recordNavigation(page);
      await page.goto(link);
      await page.getByText('No conversations yet').waitFor();
      expect(await navigationShown()).toBe(true); // the record the refused tabs above are held to sees the app

      // The same port and data, a new token: the tab's event stream reconnects with the old one, and nobody clicks.
      server.child.kill('SIGTERM');
      await server.exited;
      server = await startServer(['--data-dir', dataDir, '--port', new URL(link).port], env);
      await page.getByRole('heading', { level: 1, name: 'This link has expired' }).waitFor({ timeout: 15_000 });
      expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGTERM');
      await server.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
