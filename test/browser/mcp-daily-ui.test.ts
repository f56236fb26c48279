// MCP as it is used every day, in the browser against the real `switchyard serve`, server-everything and the
// scripted upstream: tool results with images shown as images (the MCP screen's run and the chat's tool call), a
// crash-looping server's log collapsed, and a reply of a model without a price that says "unpriced".

import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingBin } from '../chat/chat-test-app.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../chat/scripted-upstream.js';
import { expectLooksRight } from './a11y.js';
import { seedProvider } from './seed.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;
let upstream: ScriptedUpstream;

// Writes one line to stderr 40 times and exits: restarted after 1 s, 2 s… the same lines come again each round.
const crashLoop = `for (let i = 0; i < 40; i++) console.error('Error: could not reach the database'); process.exit(1);`;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  ui = await startUi({
    prepare: async (dataDir) => {
      await seedProvider(dataDir, { id: 'fake', baseUrl: upstream.baseUrl, apiKey: 'sk-upstream-test' });
      const servers = {
        everything: { command: process.execPath, args: [everythingBin, 'stdio'] },
        looper: { command: process.execPath, args: ['-e', crashLoop] },
      };
      fs.writeFileSync(path.join(dataDir, 'mcp_settings.json'), JSON.stringify({ mcpServers: servers }, null, 2));
    },
  });
}, 120_000);

closeAfterTests(() => ui);
afterAll(async () => {
  await upstream?.close();
});

async function openServer(page: Page, name: string) {
  const listed = page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: new RegExp(name) });
  await listed.click();
  return page.getByRole('region', { name: `Server ${name}` });
}

async function startChat(page: Page, text: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Model' }).waitFor();
  await expect.poll(() => page.getByRole('combobox', { name: 'Model' }).inputValue()).toBe('fake/scripted-1');
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill(text);
  await message.press('Enter');
}

describe('MCP in daily use', { timeout: 60_000 }, () => {
  it('shows the image a tool returned as an image in the MCP screen’s run', async () => {
    const { page } = await ui.open('MCP');
    const detail = await openServer(page, 'everything');
    await detail.getByRole('button', { name: 'Run get-tiny-image' }).click({ timeout: 30_000 });
    const run = page.getByRole('dialog', { name: 'Run get-tiny-image' });
    await run.getByRole('button', { name: 'Run', exact: true }).click();
    const result = run.getByRole('region', { name: 'Result' });
    const image = result.getByRole('img', { name: 'Image 1 from get-tiny-image' });
    await image.waitFor();
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    await expect
      .poll(() => image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(20);
    await ui.screenshot(page, 'mcp-run-image-light');
  });

  it('runs a tool from a form made from its input schema, with errors at the field and JSON kept in step', async () => {
    const { page } = await ui.open('MCP');
    const detail = await openServer(page, 'everything');
    await detail.getByRole('button', { name: 'Run get-annotated-message' }).click({ timeout: 30_000 });
    const run = page.getByRole('dialog', { name: 'Run get-annotated-message' });
    const kind = run.getByRole('combobox', { name: /^messageType/ });
    expect(await kind.getAttribute('aria-required')).toBe('true');
    const hints = run.locator('.field-hint');
    await hints.getByText('Type of message to demonstrate different annotation patterns.').waitFor();
    const image = run.getByRole('checkbox', { name: /^includeImage/ });
    expect(await image.isChecked()).toBe(false);
    await hints.getByText('Whether to include an example image. Default: false.').waitFor();

    await run.getByRole('button', { name: 'Run', exact: true }).click();
    await run.getByText('Some arguments need a change: see the marked fields.').waitFor();
    expect(await kind.getAttribute('aria-invalid')).toBe('true');
    await run.locator('.field-error', { hasText: 'Required.' }).waitFor();
    expect(await run.getByRole('region', { name: 'Result' }).count()).toBe(0);

    await kind.selectOption({ label: 'success' });
    await image.check();
    const json = run.getByRole('switch', { name: 'Edit the arguments as JSON' });
    await json.check({ force: true });
    const text = run.getByRole('textbox', { name: 'Arguments (JSON)' });
    expect(JSON.parse(await text.inputValue())).toEqual({ messageType: 'success', includeImage: true });
    await text.fill('{"messageType": "debug", "includeImage": true}');
    await json.uncheck({ force: true });
    expect(await kind.inputValue()).toBe('2'); // the third option, "debug"
    await ui.screenshot(page, 'mcp-run-form-light');
    await expectLooksRight(page, [kind, image]);
    await run.getByRole('button', { name: 'Run', exact: true }).click();
    const result = run.getByRole('region', { name: 'Result' });
    await result.getByText(/debug/i).first().waitFor();
    await result.getByRole('img', { name: 'Image 1 from get-annotated-message' }).waitFor();

    // Numbers: what is not one is said at the field.
    await page.keyboard.press('Escape');
    await detail.getByRole('button', { name: 'Run get-sum' }).click();
    const sum = page.getByRole('dialog', { name: 'Run get-sum' });
    await sum.getByRole('textbox', { name: /^a/ }).fill('two');
    await sum.getByRole('textbox', { name: /^b/ }).fill('3');
    await sum.getByRole('button', { name: 'Run', exact: true }).click();
    await sum.locator('.field-error', { hasText: 'Must be a number.' }).waitFor();
    await sum.getByRole('textbox', { name: /^a/ }).fill('2.5');
    await sum.getByRole('button', { name: 'Run', exact: true }).click();
    await sum.getByRole('region', { name: 'Result' }).getByText(/5\.5/).waitFor();
  });

  it('shows a crash-looping server’s repeated lines once, with how many times they came', async () => {
    const { page } = await ui.open('MCP');
    const detail = await openServer(page, 'looper');
    await detail.getByRole('tab', { name: 'Log' }).click();
    const log = detail.getByLabel('Log of looper');
    await log.getByText('… repeated 39 times').first().waitFor();
    // The next round (a restart after 1 s) folds into the line count of the rounds before it.
    await log.getByText(/… the \d+ lines above repeated \d+ times?/).waitFor({ timeout: 20_000 });
    expect(await log.locator('.log-stderr').allTextContents()).toEqual(['Error: could not reach the database\n']);
    await ui.screenshot(page, 'mcp-log-repeats-light');
  });

  it('fills the message box from a server’s prompt, and sends a message with an attached resource', async () => {
    const { page } = await ui.open('Chat');
    await page.getByRole('combobox', { name: 'Model' }).waitFor();
    await page.getByRole('button', { name: 'Use a prompt' }).click();
    const dialog = page.getByRole('dialog', { name: 'Use a prompt' });
    await dialog.getByRole('combobox', { name: 'Prompt' }).selectOption({ label: 'Arguments Prompt' });
    await dialog.getByText('A prompt with two arguments, one required and one optional').waitFor();
    const city = dialog.getByRole('textbox', { name: /^city/ });
    expect(await city.getAttribute('aria-required')).toBe('true');
    await dialog.locator('.field-hint', { hasText: 'Name of the city.' }).waitFor();
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await dialog.locator('.field-error', { hasText: 'Required.' }).waitFor();
    await expectLooksRight(page, [city, dialog.getByRole('button', { name: 'Insert' })]);
    await city.fill('Lyon');
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await dialog.waitFor({ state: 'detached' });
    const message = page.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => message.inputValue()).toBe("What's weather in Lyon?");

    await page.getByRole('button', { name: 'Attach a resource' }).click();
    const picker = page.getByRole('dialog', { name: 'Attach resources' });
    const everything = picker.getByRole('group', { name: 'everything' });
    await everything.getByRole('checkbox', { name: /architecture\.md/ }).check();
    await picker.getByRole('button', { name: 'Attach', exact: true }).click();
    const attached = page.getByRole('list', { name: 'Attached resources' });
    await attached.getByText('architecture.md').waitFor();
    await expectLooksRight(page, [attached, page.getByRole('button', { name: 'Attach a resource' })]);
    await ui.screenshot(page, 'chat-prompt-and-resource-light');
    await message.press('Enter');

    const sent = page.getByRole('article', { name: 'Your message' }).last();
    await sent.getByText("What's weather in Lyon?").waitFor();
    const resource = sent.locator('details.attached-resource');
    await resource.locator('summary').getByText('demo://resource/static/document/architecture.md').waitFor();
    await resource.locator('summary').click();
    await expect
      .poll(() => resource.getByLabel('Text of demo://resource/static/document/architecture.md').textContent())
      .toMatch(/^Attached resource demo:\/\/resource\/static\/document\/architecture\.md \(text\/markdown\):\n\n\S/);
    expect(await attached.count()).toBe(0);
    await page.getByRole('article', { name: 'Assistant message' }).last().getByLabel('Usage').waitFor();
  });

  it('shows the image of a tool call in the chat, and "unpriced" for a model without a price', async () => {
    const { page } = await ui.open('Chat');
    await startChat(page, 'an unpriced question: show me a tiny image');
    const card = page.getByRole('group', { name: 'Approve get-tiny-image on everything' });
    await card.getByRole('button', { name: 'Approve once' }).click();
    await page.getByText(/The tool said: /).waitFor();
    const toolCall = page.getByRole('region', { name: 'Tool call everything / get-tiny-image' });
    await toolCall.locator('summary').click();
    const image = toolCall.getByRole('img', { name: 'Image 1 from everything / get-tiny-image' });
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await expect
      .poll(() => image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(20);
    await expect.poll(() => toolCall.getByLabel('Result').textContent()).toContain('[image image/png, ');
    const usage = page.getByRole('article', { name: 'Assistant message' }).last().getByLabel('Usage');
    await expect.poll(() => usage.textContent()).toMatch(/^20 in · 10 out · unpriced$/);
    await ui.screenshot(page, 'chat-tool-image-light');
  });
});
