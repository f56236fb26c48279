// Comparing models in the browser against `switchyard serve` and two fake upstreams of different speeds and
// prices: Compare chooses the models, one message goes to each, the answers stream in their own columns with
// tokens, cost and timings, a column stops alone or all at once, and "Continue with this" makes the chosen answer
// the conversation's reply and its model the conversation's. Side by side when wide, stacked at 720 px.

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startScriptedUpstream, type ScriptedUpstream } from '../chat/scripted-upstream.js';
import { answer, cut, FakeOpenAI } from '../support/fake-openai.js';
import { expectLooksRight } from './a11y.js';
import { seedProvider } from './seed.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

const carefulText = 'A slower, dearer and more **careful** answer.';
/** The careful upstream's wait before its first chunk: the scripted one is done long before. */
const carefulFirstChunkMs = 2_500;

let fast: ScriptedUpstream;
let careful: FakeOpenAI;
let ui: UiHarness;

beforeAll(async () => {
  fast = await startScriptedUpstream({ slowPieceMs: 80 });
  careful = new FakeOpenAI({
    models: ['careful-1'],
    fallback: (request) => {
      const endless = JSON.stringify(request.body?.messages ?? []).includes('never ending');
      return answer(
        { content: endless ? Array.from({ length: 400 }, (_, index) => `word${index} `) : cut(carefulText, 6) },
        {
          form: 'stream',
          usageUnasked: true,
          usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42, cost: 0.003 },
          firstChunkAfterMs: endless ? 50 : carefulFirstChunkMs,
          chunkDelayMs: endless ? 100 : 20,
        },
      )(request);
    },
  });
  await careful.start();
  ui = await startUi({
    prepare: async (dataDir) => {
      await seedProvider(dataDir, { id: 'fake', baseUrl: fast.baseUrl });
      await seedProvider(dataDir, { id: 'careful', baseUrl: careful.baseUrl });
    },
  });
}, 120_000);

closeAfterTests(
  () => ui,
  () => fast,
  () => careful,
);

const picker = (page: Page) => page.getByRole('combobox', { name: 'Model', exact: true });
const compareToggle = (page: Page) => page.getByRole('button', { name: 'Compare', exact: true });
const comparison = (page: Page) => page.getByRole('region', { name: 'Comparison' });
const column = (page: Page, model: string) => comparison(page).getByRole('article', { name: `Answer of ${model}` });
const status = (page: Page, model: string) => column(page, model).locator('.compare-status');
const transcript = (page: Page) => page.getByRole('log', { name: 'Messages' });

/** The chat on the scripted model: in a new conversation, or (`draft`) before any exists. */
async function openChat(colorScheme: 'light' | 'dark', { draft = false } = {}): Promise<Page> {
  const { page } = await ui.open('Chat', { colorScheme });
  const conversations = page.getByRole('complementary', { name: 'Conversations' });
  if (draft) {
    expect(await conversations.getByRole('button', { name: 'New chat', exact: true }).count()).toBe(1);
    expect(await conversations.locator('[aria-current="true"]').count()).toBe(0);
  } else {
    await page.getByRole('button', { name: 'New chat', exact: true }).first().click();
    await conversations.locator('[aria-current="true"]').waitFor();
  }
  await picker(page).fill('scripted-1');
  await picker(page).press('ArrowDown');
  await picker(page).press('Enter');
  await expect.poll(() => picker(page).inputValue()).toBe('fake/scripted-1');
  return page;
}

/** Turns Compare on with the conversation's model and `other`, and sends `text` to both. */
async function compare(page: Page, other: string, text: string) {
  await compareToggle(page).click();
  expect(await compareToggle(page).getAttribute('aria-pressed')).toBe('true');
  const bar = page.getByRole('group', { name: 'Models to compare' });
  expect(await bar.getByRole('listitem').allTextContents()).toEqual(['fake/scripted-1×']);
  const message = page.getByRole('textbox', { name: 'Message' });
  expect(await message.getAttribute('placeholder')).toBe('Choose at least 2 models to compare');
  await bar.getByRole('combobox', { name: 'Add a model to compare' }).selectOption(other);
  expect(await bar.getByRole('listitem').allTextContents()).toEqual(['fake/scripted-1×', `${other}×`]);
  await message.fill(text);
  await message.press('Enter');
}

/** The seconds of "first token N s" in a column's timings. */
async function firstTokenSeconds(page: Page, model: string): Promise<number> {
  const text = await column(page, model).locator('.compare-metrics').nth(1).textContent();
  return Number(/first token (\d+\.\d) s/.exec(text ?? '')?.[1]);
}

describe('comparing models', () => {
  it('streams each answer in its own column with its numbers, and continues with the one chosen', async () => {
    // Before any conversation exists: the comparison makes one.
    const page = await openChat('light', { draft: true });
    const fastBefore = fast.chatRequests().length;
    await compare(page, 'careful/careful-1', 'Which is better? Think.');

    // The fast model is done while the careful one still waits for its first token.
    await expect.poll(() => status(page, 'fake/scripted-1').textContent()).toBe('Done');
    expect(await status(page, 'careful/careful-1').textContent()).toBe('Answering…');
    expect(await column(page, 'careful/careful-1').textContent()).toContain('Waiting for the first token…');
    await expect.poll(() => status(page, 'careful/careful-1').textContent(), { timeout: 20_000 }).toBe('Done');

    // The scripted model thinks first: its reasoning folds above its answer.
    const thinking = column(page, 'fake/scripted-1').locator('details.reasoning');
    expect(await thinking.locator('summary').textContent()).toBe('Reasoning');
    expect(await thinking.locator('.reasoning-text').textContent()).toBe('Let me think about it.');
    expect(await column(page, 'fake/scripted-1').locator('.compare-answer p').last().textContent()).toBe(
      'Thought it through.',
    );
    expect(await column(page, 'careful/careful-1').locator('strong').textContent()).toBe('careful');
    const metrics = async (model: string) => column(page, model).locator('.compare-metrics').allTextContents();
    expect((await metrics('fake/scripted-1'))[0]).toBe('20 in · 10 out · $0.0002');
    expect((await metrics('careful/careful-1'))[0]).toMatch(/^30 in · 12 out · \$0\.003/);
    for (const model of ['fake/scripted-1', 'careful/careful-1']) {
      expect((await metrics(model))[1]).toMatch(/^first token \d+\.\d s · total \d+\.\d s$/);
    }
    expect(await firstTokenSeconds(page, 'careful/careful-1')).toBeGreaterThanOrEqual(carefulFirstChunkMs / 1000);
    expect(await firstTokenSeconds(page, 'careful/careful-1')).toBeGreaterThan(
      await firstTokenSeconds(page, 'fake/scripted-1'),
    );
    expect(fast.chatRequests().slice(fastBefore)[0]?.body?.messages?.at(-1)).toEqual({
      role: 'user',
      content: 'Which is better? Think.',
    });
    expect(careful.chatRequests().at(-1)?.body?.messages).toEqual([
      { role: 'user', content: 'Which is better? Think.' },
    ]);

    // Wide: side by side, at the same height. 720 px: stacked, each as wide as the conversation.
    const boxes = async () =>
      Promise.all(
        ['fake/scripted-1', 'careful/careful-1'].map(async (model) => (await column(page, model).boundingBox())!),
      );
    const [left, right] = await boxes();
    expect(Math.abs(left!.y - right!.y)).toBeLessThan(1);
    expect(right!.x).toBeGreaterThanOrEqual(left!.x + left!.width);
    await ui.screenshot(page, 'chat-compare-1280-light');
    await expectLooksRight(page, [column(page, 'careful/careful-1')]);
    await page.setViewportSize({ width: 720, height: 860 });
    await expect.poll(async () => (await boxes())[1]!.y).toBeGreaterThan((await boxes())[0]!.y);
    const [top, bottom] = await boxes();
    expect(bottom!.y).toBeGreaterThanOrEqual(top!.y + top!.height);
    expect(Math.abs(top!.x - bottom!.x)).toBeLessThan(1);
    expect(Math.abs(top!.width - bottom!.width)).toBeLessThan(1);
    await ui.screenshot(page, 'chat-compare-720-light');
    await expectLooksRight(page, [
      column(page, 'careful/careful-1').getByRole('button', { name: /Continue with this/ }),
    ]);
    await page.setViewportSize({ width: 1280, height: 860 });

    // Continuing with the careful answer: it is the reply, its model the conversation's, Compare goes off.
    await column(page, 'careful/careful-1')
      .getByRole('button', { name: 'Continue with this: careful/careful-1' })
      .click();
    await comparison(page).waitFor({ state: 'detached' });
    await expect.poll(() => picker(page).inputValue()).toBe('careful/careful-1');
    expect(await compareToggle(page).getAttribute('aria-pressed')).toBe('false');
    // The conversation is loaded again with the pair once the comparison has gone.
    await expect
      .poll(() => transcript(page).getByRole('article', { name: 'Your message' }).allTextContents())
      .toEqual([expect.stringContaining('Which is better? Think.')]);
    const reply = transcript(page).getByRole('article', { name: 'Assistant message' });
    await expect.poll(() => reply.count()).toBe(1);
    expect(await reply.locator('.meta-model').textContent()).toBe('careful/careful-1');
    expect(await reply.textContent()).toContain('A slower, dearer and more careful answer.');
    await page.getByRole('heading', { level: 1, name: 'Which is better? Think.' }).waitFor();
  });

  it('stops one column, then all, and closes a comparison without keeping anything', async () => {
    const page = await openChat('dark');
    await compare(page, 'careful/careful-1', 'A slow and never ending story');
    await column(page, 'careful/careful-1').getByText('word3', { exact: false }).waitFor();
    await column(page, 'fake/scripted-1').getByText('word3', { exact: false }).waitFor();

    // Another conversation shows no comparison; after a reload, back in this one, the answers went on meanwhile.
    const conversations = page.getByRole('complementary', { name: 'Conversations' });
    const titles = conversations.locator('button.conversation-title');
    await titles.filter({ hasText: 'Which is better? Think.' }).click();
    await comparison(page).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat', exact: true }).click();
    await titles.filter({ hasText: 'New chat' }).click();
    await column(page, 'careful/careful-1').getByText('word12', { exact: false }).waitFor();
    expect(await column(page, 'careful/careful-1').locator('.compare-answer').textContent()).toContain(
      'word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12',
    );
    expect(await status(page, 'careful/careful-1').textContent()).toBe('Answering…');

    await column(page, 'careful/careful-1').getByRole('button', { name: 'Stop careful/careful-1' }).click();
    await expect.poll(() => status(page, 'careful/careful-1').textContent()).toBe('Stopped');
    expect(await status(page, 'fake/scripted-1').textContent()).toBe('Answering…');
    // A column still answering already shows its time to first token.
    expect(await column(page, 'fake/scripted-1').locator('.compare-metrics').nth(1).textContent()).toMatch(
      /^first token \d+\.\d s$/,
    );
    await page.setViewportSize({ width: 720, height: 860 });
    await ui.screenshot(page, 'chat-compare-stopping-720-dark');
    await expectLooksRight(page, [comparison(page).getByRole('button', { name: 'Stop all' })]);

    await comparison(page).getByRole('button', { name: 'Stop all' }).click();
    await expect.poll(() => status(page, 'fake/scripted-1').textContent()).toBe('Stopped');
    expect(await comparison(page).getByRole('button', { name: 'Stop all' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Send' }).waitFor();
    // A stopped answer that said something can still be chosen.
    expect(
      await column(page, 'careful/careful-1')
        .getByRole('button', { name: /Continue with this/ })
        .isEnabled(),
    ).toBe(true);

    await comparison(page).getByRole('button', { name: 'Close comparison' }).click();
    await comparison(page).waitFor({ state: 'detached' });
    expect(await transcript(page).getByRole('article').count()).toBe(0);
    await expectLooksRight(page, [compareToggle(page)]);
  });
});
