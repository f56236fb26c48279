// The API keys screen against the real `switchyard serve`: a key created in the UI shows its secret once (with a
// copy button and a warning), works against the gateway, never shows again, and gets 401 once deleted.

import { beforeAll, describe, expect, it } from 'vitest';
import { expectLooksRight } from './a11y.js';
import {
  closeAfterTests,
  confirmIn,
  expectBothThemesLookRight,
  hasFocus,
  readClipboard,
  startUi,
  type UiHarness,
} from './ui-harness.js';

let ui: UiHarness;

beforeAll(async () => {
  ui = await startUi();
}, 120_000);

closeAfterTests(() => ui);

const modelsStatus = async (secret: string) =>
  (await fetch(`${ui.server.baseUrl}/models`, { headers: { authorization: `Bearer ${secret}` } })).status;

const hubStatus = async (secret: string) => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'keys-ui-test', version: '1' } },
  };
  const response = await fetch(`${ui.server.baseUrl.replace(/\/api\/v1$/, '')}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secret}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(initialize),
  });
  await response.body?.cancel();
  return response.status;
};

describe('the API keys screen', () => {
  it('gives a key the MCP hub only when the MCP hub field names servers, and takes it away again', async () => {
    const { page } = await ui.open('Keys');
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'Create an API key' });
    expect(await form.getByLabel('MCP hub').inputValue()).toBe('');
    await form.getByLabel('Name').fill('hub client');
    await form.getByLabel('MCP hub').fill('*');
    await form.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Key "hub client" created' });
    const secret = await shown.getByLabel('New API key').inputValue();
    expect(await hubStatus(secret)).toBe(200);
    await page.keyboard.press('Escape');

    const row = page.getByRole('row', { name: /hub client/ });
    await row.getByRole('button', { name: 'Edit hub client' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit key hub client' });
    expect(await edit.getByLabel('MCP hub').inputValue()).toBe('*');
    await edit.getByLabel('MCP hub').fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    expect(await hubStatus(secret)).toBe(403);

    await row.getByRole('button', { name: 'Delete hub client' }).click();
    await confirmIn(page, 'Delete key hub client?', 'Delete key');
    await row.waitFor({ state: 'detached' });
  });

  it('creates a key shown once, which works until it is deleted with confirmation, then gets 401', async () => {
    const { page, bridgeAnswers } = await ui.open('Keys', { permissions: ['clipboard-read', 'clipboard-write'] });
    await page.getByText('No API keys yet').waitFor();
    await ui.screenshot(page, 'keys-empty-light');

    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'Create an API key' });
    await expect.poll(() => hasFocus(form.getByLabel('Name'))).toBe(true);
    // Least privilege: a new key may list and delete only itself unless the person ticks the box.
    expect(await form.getByLabel(/^Management key/).isChecked()).toBe(false);
    await form.getByLabel('Spend limit (USD)').fill('5');
    await form.getByLabel('Name').fill('ci script');
    await form.getByLabel('Only these').check();
    await form.getByLabel('All models').check();
    await ui.screenshot(page, 'keys-create-dialog-light');
    await expectLooksRight(page, [
      form.getByLabel(/^Management key/),
      form.getByRole('button', { name: 'Create key' }),
    ]);
    await form.getByLabel('Name').press('Enter'); // Enter submits the form

    const shown = page.getByRole('dialog', { name: 'Key "ci script" created' });
    const secret = await shown.getByLabel('New API key').inputValue();
    expect(secret).toMatch(/^sk-/);
    expect(await shown.getByRole('alert').textContent()).toMatch(/only time it is shown/);
    await shown.getByRole('button', { name: 'Copy API key' }).click();
    await shown.getByRole('button', { name: 'Copy API key' }).getByText('Copied').waitFor();
    expect(await readClipboard(page)).toBe(secret);
    await ui.screenshot(page, 'keys-secret-light');
    expect(await modelsStatus(secret)).toBe(200);
    const listed = await fetch(`${ui.server.baseUrl}/api-keys`, { headers: { authorization: `Bearer ${secret}` } });
    expect(((await listed.json()) as { data: { name: string; management: boolean }[] }).data).toEqual([
      expect.objectContaining({ name: 'ci script', management: false }),
    ]);

    await page.keyboard.press('Escape');
    await shown.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /ci script/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('$5.00');
    // Nowhere on the page any more, and no bridge answer but the creation's ever held it.
    expect(await page.content()).not.toContain(secret);
    await expect.poll(() => bridgeAnswers.some((answer) => answer.includes('"keys"'))).toBe(true);
    expect(bridgeAnswers.filter((answer) => answer.includes(secret))).toHaveLength(1);

    await row.getByRole('button', { name: 'Delete ci script' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete key ci script?' });
    // Cancel has the focus: Enter alone never deletes.
    await expect.poll(() => hasFocus(confirm.getByRole('button', { name: 'Cancel' }))).toBe(true);
    await confirm.getByRole('button', { name: 'Delete key' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await modelsStatus(secret)).toBe(401);
    await page.getByText('No API keys yet').waitFor();
  });

  it('changes a key’s rules: a disabled key is refused', async () => {
    const created = await ui.invoke<{ secret: string }>('keys:create', { name: 'to disable', management: true });
    const { page } = await ui.open('Keys');
    const row = page.getByRole('row', { name: /to disable/ });
    await row.getByRole('button', { name: 'Edit to disable' }).click();
    const form = page.getByRole('dialog', { name: 'Edit key to disable' });
    expect(await form.getByLabel(/^Management key/).isChecked()).toBe(true);
    await form.getByLabel(/^Disabled/).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await row.getByText('disabled', { exact: true }).waitFor();
    expect(await modelsStatus(created.secret)).toBe(401);
  });

  it('lists each key’s models, limit, rates, expiry and state, and renames a key', async () => {
    const listed = await ui.invoke<{ key: { id: string } }>('keys:create', {
      name: 'listed',
      allowed_models: ['fake/echo-1'],
      allowed_providers: ['openai'],
      limit: 3,
      limit_reset: 'weekly',
      requests_per_minute: 60,
      tokens_per_minute: 10_000,
      expires_at: '2099-01-02T03:04:00.000Z',
    });
    await ui.invoke('keys:create', { name: 'spent', limit: 0 });
    await ui.invoke('keys:create', { name: 'old', expires_at: '2020-01-01T00:00:00.000Z' });
    const { page } = await ui.open('Keys');
    const table = page.getByRole('table', { name: 'API keys' });
    // allTextContents does not wait: read the headers once the table shows its rows.
    await table.getByRole('row', { name: /^listed / }).waitFor();
    const headers = await table.getByRole('columnheader').allTextContents();
    const cells = async (name: string) => {
      const texts = await table
        .getByRole('row', { name: new RegExp(`^${name} `) })
        .getByRole('cell')
        .allTextContents();
      return Object.fromEntries(headers.map((header, index) => [header, texts[index]]));
    };
    const row = await cells('listed');
    expect(row).toMatchObject({
      Models: 'fake/echo-1, openai/*',
      Limit: '$3.00 weekly',
      Rate: '60 rpm 10000 tpm',
      State: 'active',
    });
    expect(row.Expires).toMatch(/2099/);
    expect(await cells('spent')).toMatchObject({ Models: 'all models', Rate: 'unlimited', State: 'limit reached' });
    expect(await cells('old')).toMatchObject({ State: 'expired' });
    expect((await cells('to disable')).State).toBe('disabled');

    await table.getByRole('button', { name: 'Edit listed' }).click();
    const form = page.getByRole('dialog', { name: 'Edit key listed' });
    await form.getByLabel('Name').fill('renamed');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await table.getByRole('row', { name: /^renamed / }).waitFor();
    const keys = await ui.invoke<{ keys: { id: string; name: string; allowed_models: string[] }[] }>('keys:list');
    // Renamed, its rules as they were.
    expect(keys.keys.find((key) => key.id === listed.key.id)).toMatchObject({
      name: 'renamed',
      allowed_models: ['fake/echo-1'],
    });
  });

  it('looks right in light and dark', async () => {
    await ui.invoke('keys:create', { name: 'editor plugin', limit: 20, limit_reset: 'monthly' });
    await expectBothThemesLookRight(ui, 'Keys', 'keys', async (page) => {
      const row = page.getByRole('row', { name: /editor plugin/ });
      await row.waitFor();
      return [
        page.getByRole('button', { name: 'Create key', exact: true }),
        row.getByRole('button', { name: 'Edit editor plugin' }),
        row.getByRole('button', { name: 'Delete editor plugin' }),
      ];
    });
  });
});
