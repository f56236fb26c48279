// The providers screen against the real `switchyard serve` and a fake OpenAI-compatible upstream: a provider
// added with a key is listed with the key's last four characters only (the whole key is never on the page nor in
// any bridge answer), its connection test lists the fake models, and a price set from the model list is used.

import { describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';
import { expectLooksRight } from './a11y.js';
import { confirmIn, expectBothThemesLookRight, useUpstreamUi, type UiHarness } from './ui-harness.js';

const upstreamKey = 'sk-fake-upstream-secret-7788';
let upstream: FakeUpstream;
let ui: UiHarness;

useUpstreamUi(
  () => startFakeUpstream({ models: ['echo-1', 'echo-2'] }),
  (started) => ({ ui, upstream } = started),
  { provider: null },
);

describe('the providers screen', () => {
  it('adds a provider whose key is never shown again, tests it, lists its models and prices one', async () => {
    const { page, bridgeAnswers } = await ui.open('Providers');
    await page.getByText('No providers yet').waitFor();
    await ui.screenshot(page, 'providers-empty-light');

    await page.getByRole('button', { name: 'Add provider', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'Add a provider' });
    await form.getByLabel('Id').fill('Not Valid');
    await form.getByLabel('Base URL').fill(upstream.baseUrl);
    await form.getByLabel('API key').fill(upstreamKey);
    await form.getByRole('button', { name: 'Add provider' }).click();
    // Refused in place, with what to fix; the form keeps what was typed.
    await form
      .getByRole('alert')
      .getByText(/lowercase letters/)
      .waitFor();
    await ui.screenshot(page, 'providers-add-error-light');
    await form.getByLabel('Id').fill('fake');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await form.waitFor({ state: 'detached' });

    const card = page.getByRole('listitem', { name: 'Provider fake' });
    await card.getByLabel('API key').getByText('Key ••••7788').waitFor();
    expect(await card.textContent()).toContain(upstream.baseUrl);

    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByRole('status').getByText('Connected: 2 models.').waitFor();
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${upstreamKey}`);

    await card.getByRole('button', { name: 'Models' }).click();
    const models = card.getByRole('table', { name: 'Models of fake' });
    await models.getByRole('cell', { name: 'fake/echo-1', exact: true }).waitFor();
    await models.getByRole('cell', { name: 'fake/echo-2', exact: true }).waitFor();
    await models.getByRole('button', { name: 'Set price of fake/echo-1' }).click();
    const price = page.getByRole('dialog', { name: 'Price of fake/echo-1' });
    await price.getByLabel('Input').fill('1.5');
    await price.getByLabel('Output').fill('6');
    await price.getByLabel('Output').press('Enter');
    await price.waitFor({ state: 'detached' });
    const row = models.getByRole('row', { name: /fake\/echo-1/ });
    await row.getByText('your price').waitFor();
    expect(await row.textContent()).toContain('$1.5');
    await page
      .getByRole('table', { name: 'Your prices' })
      .getByRole('cell', { name: 'fake/echo-1', exact: true })
      .waitFor();
    await ui.screenshot(page, 'providers-models-light');

    // Editing keeps the stored key unless a new one is typed.
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit provider fake' });
    await edit.getByText('Leave empty to keep the stored key ending in 7788.').waitFor();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByRole('status').getByText('Connected: 2 models.').waitFor();
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${upstreamKey}`);

    // The key went in and never came back: not on the page, not in any bridge answer.
    expect(await page.content()).not.toContain(upstreamKey);
    expect(bridgeAnswers.length).toBeGreaterThan(5);
    expect(bridgeAnswers.filter((answer) => answer.includes(upstreamKey))).toEqual([]);
    expect(bridgeAnswers.some((answer) => answer.includes('"api_key_tail":"7788"'))).toBe(true);
  });

  it('shows a failed connection test in place, and removes a provider after confirmation', async () => {
    await ui.invoke('providers:add', { id: 'down', kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: null });
    const { page } = await ui.open('Providers');
    const card = page.getByRole('listitem', { name: 'Provider down' });
    await card.getByText('No API key').waitFor();
    await card.getByRole('button', { name: 'Test connection' }).click();
    const result = card.getByRole('status');
    await expect.poll(() => result.getAttribute('class')).toContain('failed');
    expect(await result.textContent()).toMatch(/down/i);
    await ui.screenshot(page, 'providers-failed-test-light');

    await card.getByRole('button', { name: 'Remove' }).click();
    await confirmIn(page, 'Remove provider down?', 'Remove provider');
    await card.waitFor({ state: 'detached' });
    const listed = await ui.invoke<{ providers: { id: string }[] }>('providers:list');
    expect(listed.providers.map((provider) => provider.id)).toEqual(['fake']);
  });

  it('fills in kind and base URL from a preset, and tests settings before saving them', async () => {
    const { page } = await ui.open('Providers');
    await page.getByRole('button', { name: 'Add provider', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'Add a provider' });
    const preset = form.getByLabel('Preset', { exact: true });
    expect(await preset.locator('option').allTextContents()).toEqual([
      'OpenAI',
      'Anthropic',
      'Google Gemini',
      'OpenRouter',
      'Groq',
      'Mistral',
      'DeepSeek',
      'xAI',
      'Together',
      'Fireworks',
      'Ollama',
      'LM Studio',
      'Another provider (enter its kind and base URL)',
    ]);
    const fields = async () => ({
      id: await form.getByLabel('Id', { exact: true }).inputValue(),
      kind: await form.getByLabel('Kind').inputValue(),
      baseUrl: await form.getByLabel('Base URL').inputValue(),
    });
    await preset.selectOption({ label: 'Groq' });
    expect(await fields()).toEqual({ id: 'groq', kind: 'openai', baseUrl: 'https://api.groq.com/openai/v1' });
    await preset.selectOption({ label: 'Anthropic' });
    expect(await fields()).toEqual({ id: 'anthropic', kind: 'anthropic', baseUrl: 'https://api.anthropic.com' });
    await preset.selectOption({ label: 'Google Gemini' });
    expect(await fields()).toEqual({
      id: 'google',
      kind: 'google',
      baseUrl: 'https://generativelanguage.googleapis.com',
    });
    await preset.selectOption({ label: 'LM Studio' });
    expect(await fields()).toEqual({ id: 'lmstudio', kind: 'openai', baseUrl: 'http://127.0.0.1:1234/v1' });
    await form.getByText('LM Studio on this machine needs no key: leave it empty.').waitFor();
    // An id typed by the person stays when the preset changes.
    await form.getByLabel('Id', { exact: true }).fill('my-ollama');
    await preset.selectOption({ label: 'Ollama' });
    expect(await fields()).toEqual({ id: 'my-ollama', kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' });

    // Tested before saving: a server that is down fails in place...
    await form.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    const result = form.getByRole('status');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => result.getAttribute('class')).toContain('failed');
    // ...a change makes that answer stale at once, and the next test says only what it found.
    await form.getByLabel('Base URL').fill(upstream.baseUrl);
    expect(await result.getAttribute('class')).not.toContain('failed');
    await form.getByLabel('API key').fill('sk-typed-in-the-form-1234');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => result.textContent()).toBe('Connected: 2 models.');
    expect(await result.getAttribute('class')).toContain('ok');
    expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer sk-typed-in-the-form-1234');
    await expectLooksRight(page, [form.getByRole('button', { name: 'Test connection' })]);
    await form.getByRole('button', { name: 'Cancel' }).click();
    // Nothing was saved by the tests.
    const listed = await ui.invoke<{ providers: { id: string }[] }>('providers:list');
    expect(listed.providers.map((provider) => provider.id)).toEqual(['fake']);

    // Editing tests with the stored key unless a new one is typed.
    await page.getByRole('listitem', { name: 'Provider fake' }).getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit provider fake' });
    await edit.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => edit.getByRole('status').textContent()).toBe('Connected: 2 models.');
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${upstreamKey}`);
    await edit.getByRole('button', { name: 'Cancel' }).click();
  });

  it('clears an old error of the model list when a new test connects', async () => {
    const flaky = await startFakeUpstream({ models: ['echo-1', 'echo-2', 'echo-3', 'echo-4'] });
    try {
      await ui.invoke('providers:add', { id: 'flaky', kind: 'openai', baseUrl: flaky.baseUrl, apiKey: null });
      flaky.modelsStatus = 401;
      const { page } = await ui.open('Providers');
      const card = page.getByRole('listitem', { name: 'Provider flaky' });
      await card.getByRole('button', { name: 'Models' }).click();
      await card.getByText(/The models could not be listed/).waitFor();

      flaky.modelsStatus = 200;
      await card.getByRole('button', { name: 'Test connection' }).click();
      await card.getByRole('status').getByText('Connected: 4 models.').waitFor();
      await card.getByRole('cell', { name: 'flaky/echo-4', exact: true }).waitFor();
      expect(await card.textContent()).not.toContain('could not be listed');
    } finally {
      await ui.invoke('providers:remove', { id: 'flaky' });
      await flaky.close();
    }
  });

  it('looks right in light and dark', async () => {
    await expectBothThemesLookRight(ui, 'Providers', 'providers', async (page) => {
      const card = page.getByRole('listitem', { name: 'Provider fake' });
      await card.getByRole('button', { name: 'Models' }).click();
      await card.getByRole('cell', { name: 'fake/echo-2', exact: true }).waitFor();
      return [
        page.getByRole('button', { name: 'Add provider', exact: true }),
        card.getByRole('button', { name: 'Test connection' }),
        card.getByRole('button', { name: 'Edit' }),
        card.getByRole('button', { name: 'Set price of fake/echo-2' }),
      ];
    });
  });
});
