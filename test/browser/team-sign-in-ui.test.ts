// A team server's UI opened without a link (through a load balancer, from a bookmark): instead of "this link has
// expired" it asks for a management key, says what is wrong with a wrong one, and signs in with a right one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTeam, type Team } from '../team/team-harness.js';
import { expectVisible, seriousViolations } from './a11y.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

let team: Team;
let ui: UiHarness;
let managementKey: string;
let plainKey: string;

beforeAll(async () => {
  team = await startTeam();
  managementKey = (await team.createKey('lead', '--management')).key;
  plainKey = (await team.createKey('script')).key;
  ui = await startUi({ env: team.env });
}, 120_000);

closeAfterTests(() => ui);

afterAll(async () => {
  await team?.close();
});

describe('a team server’s UI without a link', () => {
  it('asks for a management key, explains a refusal, and signs in', async () => {
    // Light and dark, in a wide window and a narrow one (720 px, the narrowest the app lays out for).
    for (const [colorScheme, width] of [
      ['light', 1280],
      ['dark', 720],
    ] as const) {
      const page = await ui.newPage({ colorScheme, width });
      await page.goto(new URL('/', ui.uiUrl).href);
      await page.getByRole('heading', { level: 1, name: 'Sign in to Switchyard' }).waitFor();
      expect(await page.getByRole('heading', { name: 'This link has expired' }).count()).toBe(0);
      const field = page.getByLabel('Management key');
      expect(await field.getAttribute('type')).toBe('password');
      const button = page.getByRole('button', { name: 'Sign in' });
      expect(await button.isDisabled()).toBe(true);
      await expectVisible(page, [field, button]);
      // Nothing wider than the window: the page never scrolls sideways.
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);

      await field.fill(plainKey);
      await button.click();
      const problem = page.getByText(/needs a management key/);
      await problem.waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await seriousViolations(page)).toEqual([]);
      await expectVisible(page, [problem, field]);
      await ui.screenshot(page, `team-sign-in-refused-${colorScheme}-${width}`);

      await field.fill(managementKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      const cookies = await page.context().cookies(new URL(ui.uiUrl).origin);
      const session = cookies.find((cookie) => cookie.name === 'switchyard_session');
      expect(session?.httpOnly).toBe(true);
      expect(session?.sameSite).toBe('Strict');
      // Signed in: the Keys screen lists both keys, never a secret.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Keys' }).click();
      await page.getByRole('row', { name: /lead/ }).waitFor();
      expect(await page.getByRole('row', { name: /script/ }).count()).toBe(1);
      expect(await page.content()).not.toContain(managementKey);
    }
  });
});
