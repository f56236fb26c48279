// The gateway screen against the real `switchyard serve`: it is listening, at the base URL serve printed, and every
// snippet calls that URL with the chosen model.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';
import { seedProvider } from './seed.js';
import { readClipboard, screenshotBothThemes, startUi, type UiHarness } from './ui-harness.js';

let upstream: FakeUpstream;
let ui: UiHarness;

beforeAll(async () => {
  upstream = await startFakeUpstream({ models: ['echo-1', 'echo-2'] });
  ui = await startUi({ prepare: (dataDir) => seedProvider(dataDir, { id: 'fake', baseUrl: upstream.baseUrl }) });
}, 120_000);

afterEach(async () => {
  await ui.closePages();
});

afterAll(async () => {
  await ui?.close();
  await upstream?.close();
});

describe('the gateway screen', () => {
  it('shows the base URL and port with a copy button, and snippets that use them', async () => {
    const { page } = await ui.open('Gateway', { permissions: ['clipboard-read', 'clipboard-write'] });
    const baseUrl = ui.server.baseUrl;
    await page.getByRole('img', { name: 'listening' }).waitFor();
    expect(await page.getByLabel('Base URL', { exact: true }).textContent()).toBe(baseUrl);
    expect(await page.getByLabel('Port', { exact: true }).textContent()).toBe(new URL(baseUrl).port);
    await page.getByRole('button', { name: 'Copy base URL' }).click();
    expect(await readClipboard(page)).toBe(baseUrl);

    const snippets = ['curl', 'openai (JavaScript)', 'openai (Python)'];
    for (const name of snippets) {
      const code = await page
        .getByRole('figure', { name: `${name} snippet` })
        .locator('code')
        .textContent();
      expect(code).toContain(baseUrl);
      expect(code).toContain('fake/echo-1');
      expect(code).toContain('SWITCHYARD_API_KEY');
    }
    await page.getByLabel('Model').selectOption('fake/echo-2');
    await expect
      .poll(() => page.getByRole('figure', { name: 'curl snippet' }).locator('code').textContent())
      .toContain('"model":"fake/echo-2"');
    await page.getByRole('button', { name: 'Copy curl snippet' }).click();
    expect(await readClipboard(page)).toContain(`curl ${baseUrl}/chat/completions`);
  });

  it('looks right in light and dark', async () => {
    await screenshotBothThemes(ui, 'Gateway', 'gateway', (page) =>
      page.getByRole('img', { name: 'listening' }).waitFor(),
    );
  });
});
