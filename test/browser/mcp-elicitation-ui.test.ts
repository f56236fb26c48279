// A server's question during a tool call (MCP elicitation), against the real `switchyard serve` and the
// reference server-everything: the form generated from its schema appears over whatever screen is open, the
// answer reaches the server (the tool's result repeats it), and Escape cancels.

import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { expectLooksRight } from './a11y.js';
import { closeAfterTests, startUi, withEverythingServer, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

beforeAll(async () => {
  ui = await startUi({ prepare: withEverythingServer });
  await waitFor(
    async () => {
      const { servers } = await ui.invoke<{ servers: { state: string }[] }>('mcp:list-servers');
      return servers[0]?.state === 'connected' || undefined;
    },
    { what: 'server-everything connected', timeoutMs: 30_000 },
  );
}, 120_000);

closeAfterTests(() => ui);

const callTool = () =>
  ui.invoke<{ isError: boolean; text: string }>('mcp:call-tool', {
    name: 'everything',
    tool: 'trigger-elicitation-request',
  });

describe('questions from MCP servers', { timeout: 60_000 }, () => {
  it('shows the form from the server’s schema and answers with what was filled in', async () => {
    const { page } = await ui.open('Chat');
    const called = callTool();
    const dialog = page.getByRole('dialog', { name: 'everything asks' });
    await dialog.waitFor();
    await dialog.getByText('Please provide inputs for the following fields:').waitFor();
    // Each kind of field as a person would fill it in: text, a checkbox, a number with its default, options.
    await dialog.getByLabel('String (required)').fill('Ada Lovelace');
    await dialog.getByLabel('Boolean').check();
    expect(await dialog.getByLabel('Integer').inputValue()).toBe('42');
    expect(await dialog.getByLabel('String with email format').getAttribute('type')).toBe('email');
    await dialog.getByLabel('Legacy Titled Single Select Enum').selectOption({ label: 'Dogs' });
    await expectLooksRight(page, [dialog]);
    await ui.screenshot(page, 'mcp-elicitation-light');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'detached' });

    const result = await called;
    expect(result.text).toContain('- Name: Ada Lovelace');
    expect(result.text).toContain('- Agreed to terms: true');
    expect(result.text).toContain('"legacyTitledEnum": "pet-2"');
  });

  it('cancels on Escape, and the server hears it', async () => {
    const { page } = await ui.open('MCP');
    const called = callTool();
    const dialog = page.getByRole('dialog', { name: 'everything asks' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await called).text).toContain('User cancelled');
  });
});
