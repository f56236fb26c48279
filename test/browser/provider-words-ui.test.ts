// The Providers screen's small words, as a person reads them: the add dialog says where a key typed into it is
// really stored (here the file Switchyard falls back to without an OS keychain, by its path), a failed test names the
// provider by the id typed and says what to check, and a provider whose models cannot be listed says so on its
// card, with the reason, instead of its models silently missing from the chat's model picker.

import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';
import { expectLooksRight } from './a11y.js';
import { seedProvider } from './seed.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

let upstream: FakeUpstream;
let ui: UiHarness;

beforeAll(async () => {
  upstream = await startFakeUpstream({ models: ['echo-1'] });
  ui = await startUi({
    prepare: async (dataDir) => {
      await seedProvider(dataDir, { id: 'fake', baseUrl: upstream.baseUrl });
      // Nothing listens on port 9: its models cannot be listed.
      await seedProvider(dataDir, { id: 'down', baseUrl: 'http://127.0.0.1:9/v1' });
    },
  });
}, 120_000);

closeAfterTests(
  () => ui,
  () => upstream,
);

async function openAt(colorScheme: 'light' | 'dark', width: number) {
  const page = await ui.newPage({ colorScheme, width });
  await page.goto(ui.uiUrl);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Providers', exact: true }).click();
  await page.getByRole('listitem', { name: 'Provider fake' }).waitFor();
  return page;
}

describe('the add-provider dialog', () => {
  it('says where the key is really stored, and a failed test names the provider and what to check', async () => {
    const { location } = await ui.invoke<{ kind: string; location: string }>('providers:key-store');
    const page = await openAt('light', 1280);
    await page.getByRole('button', { name: 'Add provider', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'Add a provider' });
    const keyField = form.getByLabel('API key');
    await expect.poll(async () => (await keyField.getAttribute('aria-describedby')) !== null).toBe(true);
    const hint = form.locator(`[id="${await keyField.getAttribute('aria-describedby')}"]`);
    await expect.poll(() => hint.textContent()).toContain(location);
    expect(await hint.textContent()).toContain('a file only you can read');
    expect(await hint.textContent()).not.toContain('OS keychain and');

    await form.getByLabel('Id').fill('my-local');
    await form.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await form.getByRole('button', { name: 'Test connection' }).click();
    const result = form.getByRole('status');
    await expect.poll(() => result.textContent()).toContain('provider "my-local"');
    expect(await result.textContent()).toMatch(/Check its base URL, and that this machine reaches it/);
    await expectLooksRight(page, [result]);
  });
});

describe('a provider whose models cannot be listed', () => {
  for (const [colorScheme, width] of [
    ['light', 1280],
    ['dark', 720],
  ] as const) {
    it(`says so on its card, with the reason (${colorScheme}, ${width} px)`, async () => {
      const page = await openAt(colorScheme, width);
      const card = page.getByRole('listitem', { name: 'Provider down' });
      const notice = card.getByText('Its models could not be listed');
      await notice.waitFor();
      const text = await card.locator('p').filter({ hasText: 'Its models could not be listed' }).textContent();
      expect(text).toContain("the chat's model picker leaves them out");
      expect(text).toContain('Could not reach provider "down"');
      expect(text).toContain('Check its API key, base URL and network');
      // The provider whose models are listed says nothing of the kind.
      await page.getByRole('listitem', { name: 'Provider fake' }).getByRole('button', { name: 'Models' }).waitFor();
      expect(await page.getByRole('listitem', { name: 'Provider fake' }).textContent()).not.toContain(
        'could not be listed',
      );
      await ui.screenshot(page, `provider-models-failed-${colorScheme}-${width}`);
      await expectLooksRight(page, [notice]);
    });
  }
});
