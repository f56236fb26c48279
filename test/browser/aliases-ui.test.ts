// Model aliases on the Providers screen against the real `switchyard serve`: an alias added through the dialog is
// listed, looks right (layout and accessibility, the dialog too), and a chat request naming it reaches its model.

import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';
import { expectLooksRight } from './a11y.js';
import { useUpstreamUi, type UiHarness } from './ui-harness.js';

let upstream: FakeUpstream;
let ui: UiHarness;

useUpstreamUi(
  () => startFakeUpstream({ models: ['echo-1', 'echo-2'] }),
  async (started) => {
    ({ ui, upstream } = started);
    await ui.invoke('providers:add', { id: 'fake', kind: 'openai', baseUrl: upstream.baseUrl, apiKey: null });
  },
  { provider: null },
);

describe('model aliases on the providers screen', () => {
  it('adds an alias through the dialog, lists it, and the gateway routes requests naming it', async () => {
    const { page } = await ui.open('Providers');
    const section = page.getByRole('region', { name: 'Model aliases' });
    await section.getByText('No aliases yet.').waitFor();

    await section.getByRole('button', { name: 'Add an alias' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a model alias' });
    await dialog.getByLabel('Alias').fill('claude-sonnet-4-5');
    const model = dialog.getByLabel('Model');
    // The providers' models are the field's suggestions.
    await expect
      .poll(() =>
        dialog.locator('datalist option').evaluateAll((options) => options.map((o) => o.getAttribute('value'))),
      )
      .toEqual(['fake/echo-1', 'fake/echo-2']);
    await model.fill('fake/echo-2');
    await ui.screenshot(page, 'providers-alias-dialog-light');
    await expectLooksRight(page, [
      dialog.getByLabel('Alias'),
      model,
      dialog.getByRole('button', { name: 'Save alias' }),
    ]);
    await dialog.getByRole('button', { name: 'Save alias' }).click();
    await dialog.waitFor({ state: 'detached' });

    const table = section.getByRole('table', { name: 'Model aliases' });
    const row = table.getByRole('row', { name: /claude-sonnet-4-5/ });
    await row.getByRole('cell', { name: 'fake/echo-2', exact: true }).waitFor();
    await ui.screenshot(page, 'providers-aliases-light');
    await expectLooksRight(page, [
      section.getByRole('button', { name: 'Add an alias' }),
      row.getByRole('button', { name: 'Change the model of claude-sonnet-4-5' }),
      row.getByRole('button', { name: 'Remove the alias claude-sonnet-4-5' }),
    ]);

    // The gateway of the same server uses it at once.
    const { secret } = await ui.invoke<{ secret: string }>('keys:create', { name: 'claude code' });
    const client = new OpenAI({ baseURL: ui.server.baseUrl, apiKey: secret, maxRetries: 0 });
    const answer = await client.chat.completions.create({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
    expect(answer.model).toBe('fake/echo-2');
    expect(upstream.chatRequests().at(-1)?.body?.model).toBe('echo-2');
  });
});
