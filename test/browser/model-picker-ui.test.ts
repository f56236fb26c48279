// The chat's model picker against the real `switchyard serve`: models of two providers, searchable, grouped by
// provider, with what each can do, its context and its price (or "unpriced"); the keyboard chooses; favourites come
// first; the last model chosen is what a new chat starts on after a reload, and a conversation keeps its own.

import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';
import { expectLooksRight } from './a11y.js';
import { seedProvider } from './seed.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

let upstream: FakeUpstream;
let ui: UiHarness;

beforeAll(async () => {
  upstream = await startFakeUpstream({ models: ['echo-1', 'gpt-4o', 'o3-mini'] });
  // o3-mini as an OpenAI-compatible server lists it, with its context.
  upstream.models = [
    'echo-1',
    'gpt-4o',
    { id: 'o3-mini', object: 'model', created: 0, owned_by: 'fake', context_length: 200_000 },
  ];
  ui = await startUi({
    prepare: (dataDir) =>
      seedProvider(dataDir, { id: 'alpha', baseUrl: upstream.baseUrl }, [
        { model: 'alpha/gpt-4o', input: 2.5, output: 10 },
      ]),
  });
  await ui.invoke('providers:add', { id: 'beta', kind: 'openai', baseUrl: upstream.baseUrl, apiKey: null });
}, 120_000);

closeAfterTests(
  () => ui,
  () => upstream,
);

const picker = (page: Page) => page.getByRole('combobox', { name: 'Model' });
const list = (page: Page) => page.getByRole('listbox', { name: 'Models' });

/** The options' accessible names, in order, as the list shows them. */
async function optionNames(page: Page): Promise<string[]> {
  return (await list(page).getByRole('option').allTextContents()).map((text) => text.trim());
}

describe('the model picker', () => {
  it('searches, groups by provider and shows what each model can do and costs', async () => {
    const { page } = await ui.open('Chat');
    await expect.poll(() => picker(page).inputValue()).toBe('alpha/echo-1');
    await picker(page).click();
    await list(page).waitFor();
    expect(
      await list(page)
        .getByRole('group')
        .evaluateAll((groups) => groups.map((g) => g.getAttribute('aria-label'))),
    ).toEqual(['alpha', 'beta']);
    const alpha = list(page).getByRole('group', { name: 'alpha' });
    expect(await alpha.getByRole('option').count()).toBe(3);
    const gpt4o = alpha.getByRole('option', { name: /^gpt-4o/ });
    expect(await gpt4o.textContent()).toContain('vision');
    expect(await gpt4o.textContent()).toContain('tools');
    expect(await gpt4o.textContent()).not.toContain('reasoning');
    expect(await gpt4o.textContent()).toContain('$2.50 in · $10.00 out per M');
    const o3 = alpha.getByRole('option', { name: /^o3-mini/ });
    expect(await o3.textContent()).toContain('reasoning');
    expect(await o3.textContent()).toContain('200K context');
    // o3-mini has a bundled price; echo-1 none.
    expect(await o3.textContent()).toContain('$1.10 in · $4.40 out per M');
    expect(await alpha.getByRole('option', { name: /^echo-1/ }).textContent()).toContain('unpriced');
    expect(await alpha.getByRole('option', { name: /^echo-1/ }).getAttribute('aria-selected')).toBe('true');

    // The open list lies inside the window, over nothing it clips, and passes the audit.
    const box = (await list(page).boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.x >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height).toBe(true);
    await expectLooksRight(page, [list(page)]);
    await ui.screenshot(page, 'model-picker-open-light');

    // Every word must match, in the id, the name or what the model can do.
    await picker(page).fill('reasoning');
    await expect.poll(() => optionNames(page)).toHaveLength(2);
    await picker(page).fill('beta o3');
    await expect.poll(() => list(page).getByRole('option').count()).toBe(1);
    await picker(page).fill('nothing-like-this');
    await list(page).getByText('No model matches').waitFor();
    await picker(page).press('Escape');
    await list(page).waitFor({ state: 'detached' });
    expect(await picker(page).inputValue()).toBe('alpha/echo-1');
  });

  it('chooses with the keyboard, keeps favourites first, and remembers the last model across a reload', async () => {
    const { page } = await ui.open('Chat');
    await expect.poll(() => picker(page).inputValue()).toBe('alpha/echo-1');
    await picker(page).focus();
    await picker(page).fill('beta o3');
    await picker(page).press('ArrowDown');
    await picker(page).press('Enter');
    await expect.poll(() => picker(page).inputValue()).toBe('beta/o3-mini');
    expect(await list(page).count()).toBe(0);

    const star = page.getByRole('button', { name: 'Favourite model' });
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    await star.click();
    expect(await star.getAttribute('aria-pressed')).toBe('true');
    await picker(page).click();
    const first = list(page).getByRole('group').first();
    expect(await first.getAttribute('aria-label')).toBe('Favourites');
    expect(await first.getByRole('option').allTextContents()).toEqual([expect.stringContaining('o3-mini')]);
    await picker(page).press('Escape');

    // Before: a reload started on the alphabetically first model.
    await page.reload();
    await expect.poll(() => picker(page).inputValue()).toBe('beta/o3-mini');
    expect(await page.getByRole('button', { name: 'Favourite model' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('shows a conversation’s own model when it is opened', async () => {
    const { conversation } = await ui.invoke<{ conversation: { id: string } }>('chat:create-conversation', {
      model: 'alpha/gpt-4o',
    });
    await ui.invoke('chat:rename-conversation', { id: conversation.id, title: 'Planning on gpt-4o' });
    const { page } = await ui.open('Chat');
    await expect.poll(() => picker(page).inputValue()).toBe('alpha/echo-1');
    const conversations = page.getByRole('complementary', { name: 'Conversations' });
    await conversations.getByRole('button', { name: 'Planning on gpt-4o', exact: true }).click();
    await expect.poll(() => picker(page).inputValue()).toBe('alpha/gpt-4o');
  });

  it('looks right open in dark', async () => {
    const { page } = await ui.open('Chat', { colorScheme: 'dark' });
    await picker(page).click();
    await list(page).waitFor();
    await ui.screenshot(page, 'model-picker-open-dark');
    await expectLooksRight(page, [list(page)]);
  });
});
