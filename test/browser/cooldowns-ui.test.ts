// Cooldowns on the Providers screen, against the real `switchyard serve`: each provider's card says how its models
// cool down and which of them are cooling down (until when) or waiting for their trial, as the database shared with
// every process says; the provider dialog edits the two settings. In light and dark, at 720 and 1280 px wide.

import { describe, expect, it } from 'vitest';
import type { ProviderInfo } from '../../shared/api/index.js';
import { openStore } from '../../main/store/index.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';
import { expectLooksRight } from './a11y.js';
import { expectBothThemesLookRight, useUpstreamUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;
let upstream: FakeUpstream;
// Far enough ahead that the cooldown outlasts the test.
const coolingUntil = Date.now() + 3_600_000;

useUpstreamUi(
  () => startFakeUpstream({ models: ['echo-1', 'echo-2'] }),
  (started) => ({ ui, upstream } = started),
  {
    // As another process (or instance) that saw fake/echo-1 fail would have left it: cooling for an hour; and
    // fake/echo-2 whose cooldown has run out, so that its next request is the trial.
    prepare: async (dataDir) => {
      const store = openStore(dataDir);
      try {
        await store.setTargetHealth({
          model: 'fake/echo-1',
          provider: 'fake',
          state: 'cooling',
          until: coolingUntil,
          next_cooldown_ms: 60_000,
          updated_at: Date.now(),
        });
        await store.setTargetHealth({
          model: 'fake/echo-2',
          provider: 'fake',
          state: 'cooling',
          until: Date.now() - 1_000,
          next_cooldown_ms: 60_000,
          updated_at: Date.now(),
        });
      } finally {
        await store.close();
      }
    },
  },
);

const cooldownWords = 'A model failing 3 times in 60 s cools down for 30 s';
const untilWords = () => new Date(coolingUntil).toLocaleTimeString('en-GB', { hour12: false });

describe('cooldowns on the providers screen', () => {
  it("shows each model's health on its provider's card", async () => {
    const { page } = await ui.open('Providers');
    const card = page.getByRole('listitem', { name: 'Provider fake' });
    const health = card.getByLabel('Model health');
    await health.getByText(cooldownWords).waitFor();
    const lines = await health.getByRole('listitem').allTextContents();
    expect(lines).toEqual([
      `fake/echo-1: cooling down until ${untilWords()}`,
      'fake/echo-2: trial (the next request tests it)',
    ]);
    expect(upstream.chatRequests()).toEqual([]);
  });

  it('edits the two settings in the provider dialog, and turns cooldowns off with 0', async () => {
    const { page } = await ui.open('Providers');
    const card = page.getByRole('listitem', { name: 'Provider fake' });
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit provider fake' });
    const after = edit.getByLabel('Cool a model down after (failures)');
    const seconds = edit.getByLabel('Cooldown (seconds)');
    expect([await after.inputValue(), await seconds.inputValue()]).toEqual(['', '']);
    await edit.getByText(/0 turns cooldowns off\. Empty: 3\./).waitFor();
    await after.fill('5');
    await seconds.fill('45');
    await expectLooksRight(page, [after, seconds]);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await card.getByText('A model failing 5 times in 60 s cools down for 45 s').waitFor();
    const listed = await ui.invoke<{ providers: ProviderInfo[] }>('providers:list');
    expect(listed.providers[0]?.cooldown).toEqual({ after: 5, seconds: 45 });

    await card.getByRole('button', { name: 'Edit' }).click();
    expect(await edit.getByLabel('Cooldown (seconds)').inputValue()).toBe('45');
    await edit.getByLabel('Cool a model down after (failures)').fill('0');
    await edit.getByLabel('Cooldown (seconds)').fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await card.getByText('Cooldowns off: failing models are always tried').waitFor();

    // Back to the defaults: both fields empty.
    await card.getByRole('button', { name: 'Edit' }).click();
    await edit.getByLabel('Cool a model down after (failures)').fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await card.getByText(cooldownWords).waitFor();
    expect((await ui.invoke<{ providers: ProviderInfo[] }>('providers:list')).providers[0]?.cooldown).toBeUndefined();
  });

  it('looks right in light and dark, 1280 and 720 px wide', async () => {
    await expectBothThemesLookRight(ui, 'Providers', 'cooldowns', async (page) => {
      const health = page.getByRole('listitem', { name: 'Provider fake' }).getByLabel('Model health');
      await health.getByText(/fake\/echo-1/).waitFor();
      return [health];
    });
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page } = await ui.open('Providers', { colorScheme });
      await page.setViewportSize({ width: 720, height: 860 });
      const health = page.getByRole('listitem', { name: 'Provider fake' }).getByLabel('Model health');
      await health.getByText(/fake\/echo-1: cooling down until/).waitFor();
      await ui.screenshot(page, `cooldowns-720-${colorScheme}`);
      await expectLooksRight(page, [health]);
      // The state stays readable in a narrow window: it wraps within the card, never past its edge.
      const [line, cardBox] = [
        await health.getByRole('listitem').first().boundingBox(),
        await page.getByRole('listitem', { name: 'Provider fake' }).boundingBox(),
      ];
      expect(line!.x + line!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width);
    }
  });
});
