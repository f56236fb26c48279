// Model groups on the Providers screen against the real `switchyard serve`: a group made in the alias dialog (more
// models, a strategy, weights) is listed with its targets and strategy, edited back, and looks right — light and
// dark, 720 and 1280 px wide, with an axe audit — and a chat request naming it is answered by one of its models.

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../support/fake-openai-upstream.js';
import { expectLooksRight } from './a11y.js';
import { requestThroughGateway, useUpstreamUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

// The provider `fake` is seeded in the data folder before the server starts.
useUpstreamUi(
  () => startFakeUpstream({ models: ['echo-1', 'echo-2'] }),
  (started) => (ui = started.ui),
);

/** The Providers screen as a person with that system theme and window width sees it. */
async function openProviders(colorScheme: 'light' | 'dark', width: number): Promise<Page> {
  const { page } = await ui.open('Providers', { colorScheme });
  await page.setViewportSize({ width, height: 900 });
  await page.getByRole('region', { name: 'Model aliases' }).waitFor();
  return page;
}

describe('model groups on the providers screen', () => {
  it('makes a group in the dialog, lists it with its strategy, and the gateway answers from one of its models', async () => {
    const page = await openProviders('light', 1280);
    const section = page.getByRole('region', { name: 'Model aliases' });
    await section.getByRole('button', { name: 'Add an alias' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a model alias' });
    await dialog.getByLabel('Alias').fill('team');
    await dialog.getByLabel('Model', { exact: true }).fill('fake/echo-1');
    await expect.poll(() => dialog.getByLabel('Strategy').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Add another model' }).click();
    await dialog.getByLabel('Model 2', { exact: true }).fill('fake/echo-2');
    await dialog.getByLabel('Strategy').selectOption('weighted');
    await dialog.getByLabel('Weights').fill('3, 1');
    await dialog.getByRole('button', { name: 'Save alias' }).click();
    await dialog.waitFor({ state: 'detached' });

    const row = section.getByRole('table', { name: 'Model aliases' }).getByRole('row', { name: /team/ });
    await row.getByRole('cell', { name: 'fake/echo-1, fake/echo-2 (weighted 3,1)', exact: true }).waitFor();

    const { secret } = await ui.invoke<{ secret: string }>('keys:create', { name: 'groups' });
    // Answered (200) by one of the group's models.
    await requestThroughGateway(ui, { secret, model: 'team', app: 'groups' });
  });

  for (const width of [720, 1280]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`shows the group's dialog whole and readable at ${width} px in ${colorScheme}`, async () => {
        await ui.invoke('aliases:set', {
          name: 'team',
          target: 'fake/echo-1',
          targets: ['fake/echo-1', 'fake/echo-2'],
          strategy: 'weighted',
          weights: [3, 1],
        });
        const page = await openProviders(colorScheme, width);
        const section = page.getByRole('region', { name: 'Model aliases' });
        await section.getByRole('cell', { name: 'fake/echo-1, fake/echo-2 (weighted 3,1)', exact: true }).waitFor();
        await section.getByRole('button', { name: 'Change the model of team' }).click();
        const dialog = page.getByRole('dialog', { name: 'Alias team' });
        const second = dialog.getByLabel('Model 2', { exact: true });
        await expect.poll(() => second.inputValue()).toBe('fake/echo-2');
        expect(await dialog.getByLabel('Strategy').inputValue()).toBe('weighted');
        expect(await dialog.getByLabel('Weights').inputValue()).toBe('3, 1');
        // The Remove button sits beside its field, on the same line.
        const remove = dialog.getByRole('button', { name: 'Remove model 2' });
        const [field, button] = [await second.boundingBox(), await remove.boundingBox()];
        expect(button!.x).toBeGreaterThan(field!.x + field!.width - 1);
        expect(button!.y + button!.height).toBeGreaterThan(field!.y);
        await ui.screenshot(page, `providers-model-group-dialog-${width}-${colorScheme}`);
        await expectLooksRight(page, [
          dialog.getByLabel('Model', { exact: true }),
          second,
          remove,
          dialog.getByRole('button', { name: 'Add another model' }),
          dialog.getByLabel('Strategy'),
          dialog.getByLabel('Weights'),
          dialog.getByRole('button', { name: 'Save alias' }),
        ]);
      });
    }
  }
});
