// The gateway screen against the real `switchyard serve`: it is listening, at the base URL serve printed, and every
// snippet calls that URL with the chosen model.

import { describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../support/fake-openai-upstream.js';
import { expectLooksRight } from './a11y.js';
import { expectBothThemesLookRight, readClipboard, useUpstreamUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

useUpstreamUi(
  () => startFakeUpstream({ models: ['echo-1', 'echo-2'] }),
  (started) => ({ ui } = started),
);

describe('the gateway screen', () => {
  it('shows both base URLs and the port with copy buttons, and snippets that use the /v1 one', async () => {
    const { page } = await ui.open('Gateway', { permissions: ['clipboard-read', 'clipboard-write'] });
    const baseUrl = ui.server.baseUrl;
    const openAIBaseUrl = baseUrl.replace(/\/api\/v1$/, '/v1');
    await page.getByRole('img', { name: 'listening' }).waitFor();
    expect(await page.getByLabel('OpenAI-compatible base URL', { exact: true }).textContent()).toBe(openAIBaseUrl);
    await page.getByRole('button', { name: 'Copy OpenAI-compatible base URL' }).click();
    expect(await readClipboard(page)).toBe(openAIBaseUrl);
    await expect.poll(() => page.getByText('a request without "stream" gets one JSON object').count()).toBe(1);
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
      expect(code).toContain(openAIBaseUrl);
      expect(code).not.toContain('/api/v1');
      expect(code).toContain('fake/echo-1');
      expect(code).toContain('SWITCHYARD_API_KEY');
    }
    await page.getByLabel('Model', { exact: true }).selectOption('fake/echo-2');
    await expect
      .poll(() => page.getByRole('figure', { name: 'curl snippet' }).locator('code').textContent())
      .toContain('"model":"fake/echo-2"');
    await page.getByRole('button', { name: 'Copy curl snippet' }).click();
    expect(await readClipboard(page)).toContain(`curl ${openAIBaseUrl}/chat/completions`);
  });

  it('looks right in light and dark', async () => {
    await expectBothThemesLookRight(ui, 'Gateway', 'gateway', async (page) => {
      await page.getByRole('img', { name: 'listening' }).waitFor();
      return [
        page.getByLabel('Base URL', { exact: true }),
        page.getByRole('button', { name: 'Copy base URL' }),
        page.getByRole('figure', { name: 'curl snippet' }),
        page.getByRole('button', { name: 'Copy curl snippet' }),
      ];
    });
  });
});

describe('the gateway screen in a narrow window', () => {
  it('shows both base URLs and the snippets inside a 720 px window without overlap or clipping', async () => {
    const { page } = await ui.open('Gateway');
    await page.setViewportSize({ width: 720, height: 860 });
    await page.getByRole('img', { name: 'listening' }).waitFor();
    await expectLooksRight(page, [
      page.getByLabel('OpenAI-compatible base URL', { exact: true }),
      page.getByLabel('Base URL', { exact: true }),
      page.getByRole('figure', { name: 'curl snippet' }),
    ]);
  });
});
