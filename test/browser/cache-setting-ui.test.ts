// The Gateway screen's Response cache panel against the real `switchyard serve` (started without --cache-ttl, so the
// stored setting decides): a TTL set in the UI turns the cache on for the next request, which the official openai
// SDK then sees answered `miss` and then `hit`; a TTL that is not whole seconds is refused at the field; sharing
// between keys shows its warning; 0 turns it off again. Light and dark, 720 and 1280 px, axe.

import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../support/fake-openai-upstream.js';
import { expectLooksRight } from './a11y.js';
import { expectBothThemesLookRight, useUpstreamUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;
let secret: string;

useUpstreamUi(
  () => startFakeUpstream(),
  async (started) => {
    ({ ui } = started);
    ({ secret } = await ui.invoke<{ secret: string }>('keys:create', { name: 'cached' }));
  },
);

/** Asks the gateway the same question at temperature 0; answers its X-Switchyard-Cache header. */
async function cacheHeader(): Promise<string | null> {
  const openai = new OpenAI({ baseURL: ui.server.baseUrl.replace(/\/api\/v1$/, '/v1'), apiKey: secret, maxRetries: 0 });
  const { response } = await openai.chat.completions
    .create({ model: 'fake/echo-1', temperature: 0, messages: [{ role: 'user', content: 'cache me' }] })
    .withResponse();
  return response.headers.get('x-switchyard-cache');
}

describe('the response cache panel', () => {
  it('turns the cache on from the next request, refuses a TTL that is not whole seconds, and turns it off', async () => {
    const { page } = await ui.open('Gateway');
    const panel = page.getByRole('region', { name: 'Response cache' });
    const ttl = panel.getByLabel('Keep answers for (seconds)');
    const runningWith = panel.getByLabel('Running with');
    await expect.poll(() => runningWith.textContent()).toBe('Running with: off.');
    expect(await cacheHeader()).toBeNull();

    await ttl.fill('ten');
    await panel.getByRole('button', { name: 'Save' }).click();
    expect(await ttl.inputValue()).toBe('ten');
    expect(await ttl.getAttribute('aria-invalid')).toBe('true');
    await panel.getByText('Enter the TTL in whole seconds: 0 turns the cache off.').waitFor();
    expect(await runningWith.textContent()).toBe('Running with: off.');

    await ttl.fill('120');
    expect(await ttl.getAttribute('aria-invalid')).toBeNull();
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('status').getByText('Saved: the next request uses it.').waitFor();
    expect(await runningWith.textContent()).toBe('Running with: answers kept 120 s, per key.');
    expect(await cacheHeader()).toBe('miss');
    expect(await cacheHeader()).toBe('hit');

    await panel.getByLabel('Scope').selectOption('all');
    await panel.getByText('an answer made for one key is served to every other key that asks the same').waitFor();

    // The screen opened afresh shows what was stored.
    const { page: again } = await ui.open('Gateway');
    const reopened = again.getByRole('region', { name: 'Response cache' });
    await expect.poll(() => reopened.getByLabel('Keep answers for (seconds)').inputValue()).toBe('120');
    expect(await reopened.getByLabel('Scope').inputValue()).toBe('key');

    await reopened.getByLabel('Keep answers for (seconds)').fill('0');
    await reopened.getByRole('button', { name: 'Save' }).click();
    await reopened.getByText('Saved: the cache is off from the next request.').waitFor();
    expect(await cacheHeader()).toBeNull();
  });

  it('looks right in light and dark, with the warning for answers shared between keys', async () => {
    await expectBothThemesLookRight(ui, 'Gateway', 'gateway-cache', async (page) => {
      const panel = page.getByRole('region', { name: 'Response cache' });
      await panel.getByLabel('Scope').selectOption('all');
      const warning = panel.getByRole('note');
      await warning.waitFor();
      await panel.scrollIntoViewIfNeeded();
      return [
        panel.getByLabel('Keep answers for (seconds)'),
        panel.getByLabel('Scope'),
        warning,
        panel.getByRole('button', { name: 'Save' }),
      ];
    });
  });

  for (const width of [720, 1280]) {
    it(`fits a ${width} px window, an error under its field, without overlap or clipping`, async () => {
      const { page } = await ui.open('Gateway');
      await page.setViewportSize({ width, height: 860 });
      const panel = page.getByRole('region', { name: 'Response cache' });
      const ttl = panel.getByLabel('Keep answers for (seconds)');
      await ttl.fill('1.5');
      const error = panel.getByText('Enter the TTL in whole seconds: 0 turns the cache off.');
      await error.waitFor();
      await panel.scrollIntoViewIfNeeded();
      await ui.screenshot(page, `gateway-cache-${width}`);
      await expectLooksRight(page, [
        ttl,
        error,
        panel.getByLabel('Scope'),
        panel.getByRole('button', { name: 'Save' }),
      ]);
      const [field, message] = await Promise.all([ttl.boundingBox(), error.boundingBox()]);
      expect(message!.y).toBeGreaterThanOrEqual(field!.y + field!.height);
    });
  }
});
