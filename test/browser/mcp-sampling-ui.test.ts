// A server's sampling requests in the UI, against the real `switchyard serve`, server-everything (its
// trigger-sampling-request) and a fake OpenAI-compatible upstream as the provider: the server form chooses the
// model from the providers' models and the approval, written to mcp_settings.json; with "ask" the request appears
// over whatever screen is open with what would be sent, and the person's Approve or Decline reaches the server.
// Light and dark, 1280 and 720 px wide, each checked for layout and by axe.

import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { everythingBin } from '../chat/chat-test-app.js';
import { startScriptedUpstream } from '../chat/scripted-upstream.js';
import { waitFor } from '../support/wait-for.js';
import { expectLooksRight } from './a11y.js';
import { useUpstreamUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

useUpstreamUi(
  () => startScriptedUpstream(),
  async (started) => {
    ui = started.ui;
    await waitFor(
      async () => {
        const { servers } = await ui.invoke<{ servers: { state: string }[] }>('mcp:list-servers');
        return servers[0]?.state === 'connected' || undefined;
      },
      { what: 'server-everything connected', timeoutMs: 30_000 },
    );
  },
  {
    prepare: (dataDir) =>
      fs.writeFileSync(
        path.join(dataDir, 'mcp_settings.json'),
        JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingBin, 'stdio'] } } }),
      ),
  },
);

const onDisk = () =>
  JSON.parse(fs.readFileSync(path.join(ui.dataDir, 'mcp_settings.json'), 'utf8')) as {
    mcpServers: Record<string, Record<string, unknown>>;
  };

const sampleThroughTool = () =>
  ui.invoke<{ isError: boolean; text: string }>('mcp:call-tool', {
    name: 'everything',
    tool: 'trigger-sampling-request',
    arguments: { prompt: 'a haiku about rails', maxTokens: 42 },
  });

async function openAt(colorScheme: 'light' | 'dark', width: number): Promise<Page> {
  const { page } = await ui.open('MCP', { colorScheme });
  await page.setViewportSize({ width, height: 860 });
  return page;
}

describe('sampling in the UI', { timeout: 60_000 }, () => {
  it('chooses the model and the approval in the server form, and writes them to the settings file', async () => {
    for (const [colorScheme, width] of [
      ['light', 1280],
      ['dark', 720],
    ] as const) {
      const page = await openAt(colorScheme, width);
      await page
        .getByRole('list', { name: 'Servers' })
        .getByRole('button', { name: /everything/ })
        .click();
      await page.getByRole('region', { name: 'Server everything' }).getByRole('button', { name: 'Edit' }).click();
      const form = page.getByRole('dialog', { name: 'Edit server everything' });
      const sampling = form.getByRole('group', { name: 'Sampling' });
      const model = sampling.getByLabel('Model');
      // The providers' models, once listed; the first time none is chosen yet (sampling is refused), then the
      // one saved the first time.
      await model.locator('option[value="fake/scripted-1"]').waitFor({ state: 'attached' });
      expect(await model.inputValue()).toBe(width === 1280 ? '' : 'fake/scripted-1');
      await model.selectOption('fake/scripted-1');
      await sampling.getByLabel('Approval').selectOption({ label: 'Ask me each time' });
      await sampling.scrollIntoViewIfNeeded();
      await expectLooksRight(page, [form, sampling]);
      await ui.screenshot(page, `mcp-sampling-form-${colorScheme}-${width}`);
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'detached' });
    }
    expect(onDisk().mcpServers.everything?.sampling).toEqual({ model: 'fake/scripted-1', approval: 'ask' });
  });

  it('asks before calling the model, showing what would be sent, and answers once approved', async () => {
    const page = await openAt('light', 1280);
    const called = sampleThroughTool();
    const dialog = page.getByRole('dialog', { name: 'everything asks to use a model' });
    await dialog.waitFor();
    await dialog.getByText('fake/scripted-1').waitFor();
    await dialog.getByText('at most 42 tokens').waitFor();
    await dialog.getByRole('region', { name: 'System prompt' }).getByText('You are a helpful test server.').waitFor();
    const messages = dialog.getByRole('region', { name: 'Messages' });
    await messages.getByText('Resource trigger-sampling-request context: a haiku about rails').waitFor();
    await expectLooksRight(page, [dialog, dialog.getByRole('button', { name: 'Approve' })]);
    await ui.screenshot(page, 'mcp-sampling-ask-light-1280');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await dialog.waitFor({ state: 'detached' });
    const result = await called;
    expect(result.isError).toBe(false);
    expect(result.text).toContain('Hello from the **scripted** model.');
    expect(result.text).toContain('"model": "fake/scripted-1"');
  });

  it('declines, with Decline or Escape, and the server hears the user’s rejection', async () => {
    for (const [colorScheme, width, how] of [
      ['dark', 720, 'button'],
      ['dark', 1280, 'Escape'],
      ['light', 720, 'button'],
    ] as const) {
      const page = await openAt(colorScheme, width);
      const called = sampleThroughTool();
      const dialog = page.getByRole('dialog', { name: 'everything asks to use a model' });
      await dialog.waitFor();
      await expectLooksRight(page, [dialog, dialog.getByRole('button', { name: 'Decline' })]);
      await ui.screenshot(page, `mcp-sampling-ask-${colorScheme}-${width}`);
      if (how === 'Escape') await page.keyboard.press('Escape');
      else await dialog.getByRole('button', { name: 'Decline' }).click();
      await dialog.waitFor({ state: 'detached' });
      const result = await called;
      expect(result.isError).toBe(true);
      expect(result.text).toContain('User rejected sampling request');
      await ui.closePages();
    }
  });
});
