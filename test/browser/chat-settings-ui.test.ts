// A chat's settings, presets and costs as a person uses them in the browser against `switchyard serve` and a fake
// upstream: settings chosen before the first message become the new conversation's and reach the upstream; a value
// out of range is kept and explained at its field; presets are saved, made the default, renamed, chosen in one
// click and deleted; the open conversation shows its tokens, its cost and how full the context window will be.

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatCost } from '../../shared/api/index.js';
import type { ChatPreset, Conversation } from '../../shared/bridge/types.js';
import { conversationStep, type ScriptedUpstream } from '../chat/scripted-upstream.js';
import { FakeOpenAI } from '../support/fake-openai.js';
import { waitFor } from '../support/wait-for.js';
import { expectLooksRight } from './a11y.js';
import { seedProvider } from './seed.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

let upstream: ScriptedUpstream;
let ui: UiHarness;

beforeAll(async () => {
  const fake = new FakeOpenAI({
    models: [
      { id: 'scripted-1', object: 'model', created: 0, owned_by: 'test' },
      // A name of a family known to reason, with the context length the listing gives.
      { id: 'qwq-thinker', object: 'model', created: 0, owned_by: 'test', context_length: 8_000 },
    ],
    fallback: conversationStep(),
  });
  await fake.start();
  upstream = fake as ScriptedUpstream;
  ui = await startUi({ prepare: (dataDir) => seedProvider(dataDir, { id: 'fake', baseUrl: upstream.baseUrl }) });
}, 120_000);

closeAfterTests(
  () => ui,
  () => upstream,
);

async function openChat(colorScheme: 'light' | 'dark', width = 1280): Promise<Page> {
  const { page } = await ui.open('Chat', { colorScheme });
  await page.setViewportSize({ width, height: 860 });
  await expect.poll(() => page.getByRole('combobox', { name: 'Model', exact: true }).inputValue()).not.toBe('');
  return page;
}

async function chooseModel(page: Page, id: string): Promise<void> {
  const picker = page.getByRole('combobox', { name: 'Model', exact: true });
  await picker.fill(id.split('/')[1]!);
  await page.getByRole('option', { name: new RegExp(`^${id.split('/')[1]}`) }).click();
  await expect.poll(() => picker.inputValue()).toBe(id);
}

const panel = (page: Page) => page.getByRole('region', { name: 'Conversation settings' });
const settingsButton = (page: Page) => page.getByRole('button', { name: 'Conversation settings' });

async function deleteAllPresets(): Promise<void> {
  const { presets } = await ui.invoke<{ presets: ChatPreset[] }>('chat:list-presets');
  for (const preset of presets) await ui.invoke('chat:delete-preset', { id: preset.id });
}

/** Waits for the reply to the last message to settle. */
async function settled(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Send' }).waitFor();
  const replies = page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Assistant message' });
  await expect.poll(() => replies.locator('[aria-busy="true"]').count()).toBe(0);
}

describe('conversation settings', () => {
  it.each([
    ['light', 1280],
    ['dark', 720],
  ] as const)(
    'are set before the first message, explained at the field when wrong, and sent upstream (%s, %i px)',
    async (colorScheme, width) => {
      await deleteAllPresets();
      const page = await openChat(colorScheme, width);
      await chooseModel(page, 'fake/scripted-1');
      expect(await settingsButton(page).isEnabled()).toBe(true);
      await settingsButton(page).click();
      expect(await settingsButton(page).getAttribute('aria-expanded')).toBe('true');

      const temperature = panel(page).getByRole('textbox', { name: 'Temperature' });
      await temperature.fill('5');
      await temperature.blur();
      expect(await temperature.inputValue()).toBe('5');
      expect(await temperature.getAttribute('aria-invalid')).toBe('true');
      const noteId = (await temperature.getAttribute('aria-describedby'))!;
      expect(await page.locator(`[id="${noteId}"]`).textContent()).toBe('Use a number from 0 to 2.');
      // The explanation is in the danger colour, readable on the panel.
      await expectLooksRight(page, [temperature, page.locator(`[id="${noteId}"]`)]);
      // Not among the settings: the reasoning effort, which this model has no use for.
      expect(await panel(page).getByRole('combobox', { name: 'Reasoning effort' }).count()).toBe(0);

      await temperature.fill('0.7');
      await panel(page).getByRole('textbox', { name: 'Max tokens' }).fill('64');
      await panel(page).getByRole('textbox', { name: 'Top P' }).fill('0.9');
      await panel(page).getByRole('textbox', { name: 'Seed' }).fill('7');
      await panel(page).getByRole('textbox', { name: 'System prompt' }).fill('Be terse.');
      await panel(page).getByRole('button', { name: 'Add stop sequence' }).click();
      await panel(page).getByRole('textbox', { name: 'Stop sequence 1' }).fill('END');
      await panel(page).getByRole('button', { name: 'Add stop sequence' }).click();
      // Typed on one line: \n stands for a new line.
      await panel(page).getByRole('textbox', { name: 'Stop sequence 2' }).fill('\\n\\nUser:');
      await panel(page).getByRole('textbox', { name: 'Seed' }).click();
      expect(await temperature.getAttribute('aria-invalid')).toBeNull();

      await chooseModel(page, 'fake/qwq-thinker');
      const effort = panel(page).getByRole('combobox', { name: 'Reasoning effort' });
      await effort.selectOption('high');
      await ui.screenshot(page, `chat-settings-new-${colorScheme}-${width}`);
      await expectLooksRight(page, [effort, panel(page).getByRole('button', { name: 'Save as preset…' })]);

      const before = upstream.chatRequests().length;
      const message = page.getByRole('textbox', { name: 'Message' });
      await message.fill('Hello there');
      await message.press('Enter');
      await waitFor(() => upstream.chatRequests().length > before, { what: 'the first request' });
      const body = upstream.chatRequests().at(-1)!.body as Record<string, unknown>;
      expect(body).toMatchObject({
        model: 'qwq-thinker',
        temperature: 0.7,
        max_tokens: 64,
        top_p: 0.9,
        seed: 7,
        stop: ['END', '\n\nUser:'],
        reasoning_effort: 'high',
      });
      expect((body.messages as unknown[])[0]).toEqual({ role: 'system', content: 'Be terse.' });
      await settled(page);

      // The conversation holds them: the panel, still open on the conversation the message created, shows them.
      expect(await settingsButton(page).getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => temperature.inputValue()).toBe('0.7');
      expect(await panel(page).getByRole('textbox', { name: 'Stop sequence 1' }).inputValue()).toBe('END');
      expect(await panel(page).getByRole('textbox', { name: 'Stop sequence 2' }).inputValue()).toBe('\\n\\nUser:');
      expect(await effort.inputValue()).toBe('high');

      // A wrong value typed into the conversation's settings is kept on screen and not saved.
      await temperature.fill('2.5');
      await temperature.blur();
      expect(await temperature.getAttribute('aria-invalid')).toBe('true');
      const { conversations } = await ui.invoke<{ conversations: Conversation[] }>('chat:list-conversations');
      expect(conversations[0]?.temperature).toBe(0.7);
      expect(await temperature.inputValue()).toBe('2.5');

      // Back to the model's defaults, the system prompt kept.
      await panel(page).getByRole('button', { name: 'Reset to model defaults' }).click();
      await expect.poll(() => temperature.inputValue()).toBe('');
      await expect
        .poll(
          async () => (await ui.invoke<{ conversations: Conversation[] }>('chat:list-conversations')).conversations[0],
        )
        .toMatchObject({ temperature: null, maxTokens: null, topP: null, seed: null, stop: [], reasoningEffort: null });
      expect(await panel(page).getByRole('textbox', { name: 'System prompt' }).inputValue()).toBe('Be terse.');
      expect(await panel(page).getByRole('button', { name: 'Reset to model defaults' }).isDisabled()).toBe(true);
    },
    90_000,
  );
});

describe('presets', () => {
  it('are saved from the settings, made the default, chosen in one click, renamed and deleted', async () => {
    await deleteAllPresets();
    const page = await openChat('light');
    await chooseModel(page, 'fake/scripted-1');
    await settingsButton(page).click();
    await panel(page).getByRole('textbox', { name: 'Temperature' }).fill('0.2');
    await panel(page).getByRole('textbox', { name: 'System prompt' }).fill('Answer like a pirate.');
    await panel(page).getByRole('textbox', { name: 'Temperature' }).blur();

    await panel(page).getByRole('button', { name: 'Save as preset…' }).click();
    const saveDialog = page.getByRole('dialog', { name: 'Save as preset' });
    await saveDialog.getByRole('textbox', { name: 'Name' }).fill('Pirate');
    await saveDialog.getByRole('checkbox', { name: 'Start every new chat from it' }).check();
    await saveDialog.getByRole('button', { name: 'Save preset' }).click();
    await expect.poll(() => saveDialog.count()).toBe(0);
    const { presets } = await ui.invoke<{ presets: ChatPreset[] }>('chat:list-presets');
    expect(presets).toMatchObject([
      {
        name: 'Pirate',
        isDefault: true,
        model: 'fake/scripted-1',
        temperature: 0.2,
        systemPrompt: 'Answer like a pirate.',
      },
    ]);
    await ui.invoke('chat:save-preset', {
      name: 'Poet',
      model: 'fake/qwq-thinker',
      systemPrompt: 'Answer in verse.',
      temperature: 1.3,
    });

    // A new chat starts from the default preset.
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('button', { name: 'New chat', exact: true }).first().click();
    await settingsButton(page).click();
    await expect.poll(() => panel(page).getByRole('textbox', { name: 'Temperature' }).inputValue()).toBe('0.2');
    expect(await panel(page).getByRole('textbox', { name: 'System prompt' }).inputValue()).toBe(
      'Answer like a pirate.',
    );

    // One click on a chip gives the empty chat another preset, its model included.
    const chips = page.getByRole('group', { name: 'Start from a preset' });
    expect(await chips.getByRole('button').allTextContents()).toEqual(['Pirate · default', 'Poet', 'Manage presets']);
    await ui.screenshot(page, 'chat-presets-chips-light');
    await expectLooksRight(page, [chips.getByRole('button', { name: 'Poet' })]);
    await chips.getByRole('button', { name: 'Poet' }).click();
    await expect.poll(() => panel(page).getByRole('textbox', { name: 'Temperature' }).inputValue()).toBe('1.3');
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Model', exact: true }).inputValue())
      .toBe('fake/qwq-thinker');

    // The manager renames, changes the default and deletes after asking.
    await chips.getByRole('button', { name: 'Manage presets' }).click();
    const manager = page.getByRole('dialog', { name: 'Presets' });
    await manager.getByRole('button', { name: 'Rename Poet' }).click();
    await manager.getByRole('textbox', { name: 'New name for Poet' }).fill('Bard');
    await manager.getByRole('button', { name: 'Save', exact: true }).click();
    const bardDefault = manager.getByRole('listitem').filter({ hasText: 'Bard' }).getByRole('checkbox');
    await bardDefault.click();
    await expect.poll(() => bardDefault.isChecked()).toBe(true);
    await expect
      .poll(async () =>
        (await ui.invoke<{ presets: ChatPreset[] }>('chat:list-presets')).presets.map((p) => [p.name, p.isDefault]),
      )
      .toEqual([
        ['Bard', true],
        ['Pirate', false],
      ]);
    // A preset takes the open chat's settings and model (this chat has Poet's now).
    await manager.getByRole('button', { name: 'Update to this chat: Pirate' }).click();
    await expect
      .poll(async () =>
        (await ui.invoke<{ presets: ChatPreset[] }>('chat:list-presets')).presets.find((p) => p.name === 'Pirate'),
      )
      .toMatchObject({
        temperature: 1.3,
        systemPrompt: 'Answer in verse.',
        model: 'fake/qwq-thinker',
        isDefault: false,
      });
    await manager.getByRole('button', { name: 'Delete Pirate' }).click();
    await manager.getByText('Delete “Pirate”?').waitFor();
    await expectLooksRight(page, [manager.getByRole('button', { name: 'Delete', exact: true })]);
    await manager.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => manager.getByRole('listitem').count()).toBe(1);
    await manager.getByRole('button', { name: 'Done' }).click();
    expect(await chips.getByRole('button').allTextContents()).toEqual(['Bard · default', 'Manage presets']);

    // A new chat beside an open one starts from the new default too.
    type Listed = { conversations: Conversation[] };
    const opened = page.getByRole('heading', { level: 1 });
    const before = (await ui.invoke<Listed>('chat:list-conversations')).conversations.length;
    await page.getByRole('button', { name: 'New chat', exact: true }).first().click();
    await expect
      .poll(async () => (await ui.invoke<Listed>('chat:list-conversations')).conversations.length)
      .toBe(before + 1);
    const [created] = (await ui.invoke<Listed>('chat:list-conversations')).conversations;
    expect(created).toMatchObject({ temperature: 1.3, systemPrompt: 'Answer in verse.', model: 'fake/qwq-thinker' });
    expect(await opened.textContent()).toBe('New chat');
  });
});

describe('presets in a narrow dark window', () => {
  it('show their chips and their manager readably at 720 px', async () => {
    await deleteAllPresets();
    for (const name of ['Careful reviewer', 'Terse', 'Translator into Portuguese']) {
      await ui.invoke('chat:save-preset', { name, model: null, systemPrompt: name, temperature: null });
    }
    const page = await openChat('dark', 720);
    const chips = page.getByRole('group', { name: 'Start from a preset' });
    await chips.getByRole('button', { name: 'Translator into Portuguese' }).waitFor();
    await expectLooksRight(page, [chips.getByRole('button', { name: 'Careful reviewer' })]);
    await chips.getByRole('button', { name: 'Manage presets' }).click();
    const manager = page.getByRole('dialog', { name: 'Presets' });
    expect(await manager.getByRole('listitem').count()).toBe(3);
    await ui.screenshot(page, 'chat-presets-manager-dark-720');
    await expectLooksRight(page, [
      manager.getByRole('button', { name: 'Delete Translator into Portuguese' }),
      manager.getByRole('button', { name: 'Done' }),
    ]);
  });
});

describe('what a conversation costs', () => {
  it.each([
    ['dark', 1280],
    ['light', 720],
  ] as const)('shows its tokens, its cost and the context window it fills (%s, %i px)', async (colorScheme, width) => {
    await deleteAllPresets();
    const page = await openChat(colorScheme, width);
    await chooseModel(page, 'fake/qwq-thinker');
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('Hello');
    await message.press('Enter');
    await settled(page);
    const usage = page.getByLabel('Conversation usage');
    // The scripted upstream reports 20 prompt and 10 completion tokens and $0.0002 per reply.
    await expect.poll(() => usage.textContent()).toContain(`30 tokens · ${formatCost(0.0002, false)}`);
    expect(await usage.textContent()).toContain('next request about 30 of 8,000 tokens (under 1%)');
    await message.fill('x'.repeat(400));
    await expect.poll(() => usage.textContent()).toContain('next request about 130 of 8,000 tokens (2%)');
    const meter = usage.getByRole('meter', { name: 'Context window used' });
    expect(Number(await meter.getAttribute('value'))).toBeCloseTo(130 / 8_000, 5);
    await ui.screenshot(page, `chat-cost-${colorScheme}-${width}`);
    await expectLooksRight(page, [usage]);

    // A reply without a price makes the total unpriced; a model without a context length says so.
    await message.fill('');
    await chooseModel(page, 'fake/scripted-1');
    await message.fill('an unpriced question');
    await message.press('Enter');
    await settled(page);
    await expect.poll(() => usage.textContent()).toContain('60 tokens · unpriced');
    expect(await usage.textContent()).toContain('next request about 30 tokens; context size unknown');
    expect(await usage.getByRole('meter').count()).toBe(0);
  });
});
