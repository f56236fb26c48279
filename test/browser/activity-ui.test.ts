// The activity screen against the real `switchyard serve`: after a request through the gateway, the chart draws,
// the breakdowns show its model, app and key, the details dialog has its record, credits can be set and topped up,
// and the CSV export downloads a file with a header.

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../support/fake-openai-upstream.js';
import { expectBothThemesLookRight, requestThroughGateway, useUpstreamUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;
let generationId: string;
let reportsSecret: string;

useUpstreamUi(
  () => startFakeUpstream({ models: ['echo-1', 'echo-unpriced'] }),
  async (started) => {
    ui = started.ui;
    ({ secret: reportsSecret } = await ui.invoke<{ secret: string }>('keys:create', { name: 'reports' }));
    generationId = await weeklyReport();
  },
  { prices: [{ model: 'fake/echo-1', input: 1.5, output: 6 }] },
);

/** One request through the gateway as the "reports" key and the "Weekly report" app; answers its generation id. */
function weeklyReport(model = 'fake/echo-1', secret = reportsSecret): Promise<string> {
  return requestThroughGateway(ui, { secret, model, app: 'Weekly report' });
}

// 11 prompt tokens at $1.5 and 3 completion tokens at $6 per million: $0.0000345, shown with two significant
// digits as every amount below a cent is.
const cost = '$0.000035';

describe('the activity screen', () => {
  it('charts the request and breaks it down by model, app and key, with its details', async () => {
    const { page } = await ui.open('Activity');
    const chart = page.getByRole('img', { name: /^Cost and requests per day, 30 days: / });
    await expect.poll(() => chart.getAttribute('aria-label')).toContain(`${cost}, 1 requests`);
    // uPlot drew into the frame: its canvas and a legend with both series.
    expect(await chart.locator('canvas').count()).toBeGreaterThan(0);
    await chart.locator('.u-legend').getByText('Cost').waitFor();
    // With no day under the pointer, the legend shows the period's totals, not placeholders.
    const legend = await chart.locator('.u-legend').textContent();
    expect(legend).toContain('All days');
    expect(legend).toContain(cost);
    expect(legend).not.toContain('--');
    expect(await page.getByLabel('Spent', { exact: true }).textContent()).toBe(cost);

    await page.getByRole('region', { name: 'By model' }).getByRole('cell', { name: 'fake/echo-1' }).waitFor();
    await page.getByRole('region', { name: 'By app' }).getByRole('cell', { name: 'Weekly report' }).waitFor();
    await page.getByRole('region', { name: 'By key' }).getByRole('cell', { name: 'reports' }).waitFor();

    await page.getByRole('button', { name: `Details of ${generationId}` }).click();
    const details = page.getByRole('dialog', { name: `Request ${generationId}` });
    await details.getByText('Prompt tokens').waitFor();
    expect(await details.textContent()).toContain(cost);
    await ui.screenshot(page, 'activity-details-light');
    await details.getByRole('button', { name: 'Close' }).last().click();
    await details.waitFor({ state: 'detached' });
  });

  it('sets the credits balance, tops it up, and goes back to unlimited', async () => {
    const { page } = await ui.open('Activity');
    const credits = page.getByRole('region', { name: 'Credits' });
    const balance = credits.getByLabel('Balance');
    await expect.poll(() => balance.textContent()).toBe('Unlimited');
    await credits.getByLabel('Amount in USD').fill('10');
    await credits.getByRole('button', { name: 'Set balance' }).click();
    await expect.poll(() => balance.textContent()).toBe('$10.00');
    await credits.getByLabel('Amount in USD').fill('2.5');
    await credits.getByLabel('Amount in USD').press('Enter'); // Enter adds
    await expect.poll(() => balance.textContent()).toBe('$12.50');
    expect((await ui.invoke<{ status: { balance: number } }>('credits:show')).status.balance).toBe(12.5);
    await ui.screenshot(page, 'activity-credits-light');
    await credits.getByRole('button', { name: 'Remove the balance (unlimited)' }).click();
    await expect.poll(() => balance.textContent()).toBe('Unlimited');
  });

  it('exports the requests as a CSV file with a header', async () => {
    const { page } = await ui.open('Activity');
    await page.getByRole('region', { name: 'By model' }).getByRole('cell', { name: 'fake/echo-1' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export requests CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^switchyard-requests-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs
      .readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\n');
    expect(csv[0]).toMatch(/^created_at,id,key_id,app_title,app_referer,model,/);
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(generationId);
    expect(csv[1]).toContain('fake/echo-1');
  });

  it('looks right in light and dark', async () => {
    await expectBothThemesLookRight(ui, 'Activity', 'activity', async (page) => {
      await page.getByRole('region', { name: 'By model' }).getByRole('cell', { name: 'fake/echo-1' }).waitFor();
      const chart = page.getByRole('img', { name: /1 requests/ });
      await chart.locator('canvas').first().waitFor();
      return [
        chart,
        page.getByRole('radiogroup', { name: 'Period' }),
        page.getByRole('button', { name: 'Refresh' }),
        page.getByLabel('Spent', { exact: true }),
        page.getByRole('button', { name: `Details of ${generationId}` }),
      ];
    });
  });

  // Last: it adds a request, which the tests above do not expect.
  it('shows a new request after Refresh, and the period chosen', async () => {
    const { page } = await ui.open('Activity');
    const chart = (days: string) =>
      page.getByRole('img', { name: new RegExp(`^Cost and requests per day, ${days}: `) });
    await expect.poll(() => chart('30 days').getAttribute('aria-label')).toContain('1 requests');
    await weeklyReport();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => chart('30 days').getAttribute('aria-label')).toContain('2 requests');
    await page.getByRole('radio', { name: '7 days' }).check();
    await expect.poll(() => chart('7 days').getAttribute('aria-label')).toContain('2 requests');
    expect(await page.getByRole('radio', { name: '7 days' }).isChecked()).toBe(true);
  });

  // After the Refresh test: it adds a request too.
  it('shows a request to a model without a price as unpriced, never as $0', async () => {
    const unpricedId = await weeklyReport('fake/echo-unpriced');
    const { page } = await ui.open('Activity');
    const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Details of ${unpricedId}` }) });
    await expect.poll(() => row.textContent()).toContain('unpriced');
    expect(await row.textContent()).not.toContain('$0');
    await page.getByRole('button', { name: `Details of ${unpricedId}` }).click();
    const details = page.getByRole('dialog', { name: `Request ${unpricedId}` });
    await details.getByText('Prompt tokens').waitFor();
    expect(await details.textContent()).toContain('unpriced: no price is known for this model');
    expect(await details.textContent()).not.toContain('$0');
    await details.getByRole('button', { name: 'Close' }).last().click();
    // The breakdown by model too: the unpriced model's row says so, instead of a $0.00 that looks free.
    const byModel = page.getByRole('region', { name: 'By model' });
    const unpricedModel = byModel
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'fake/echo-unpriced' }) });
    await expect.poll(() => unpricedModel.getByRole('cell').last().textContent()).toBe('unpriced');
    // The totals count what is known and say what is not.
    expect(await page.getByLabel('Spent', { exact: true }).textContent()).toMatch(/^\$0\.0000\d+ \+ 1 unpriced$/);
  });

  it('shows new requests by itself, and names a deleted key in the breakdown', async () => {
    const { page } = await ui.open('Activity');
    const chart = page.getByRole('img', { name: /^Cost and requests per day, 30 days: / });
    const requests = async () => Number(/(\d+) requests/.exec((await chart.getAttribute('aria-label')) ?? '')?.[1]);
    await expect.poll(requests).toBeGreaterThan(0);
    const before = await requests();
    const { key, secret } = await ui.invoke<{ key: { id: string }; secret: string }>('keys:create', {
      name: 'short-lived',
    });
    await weeklyReport('fake/echo-1', secret);
    // No Refresh: the screen hears of the request and loads again.
    await expect.poll(requests).toBe(before + 1);
    const byKey = page.getByRole('region', { name: 'By key' });
    await byKey.getByRole('cell', { name: 'short-lived', exact: true }).waitFor();

    await ui.invoke('keys:delete', { id: key.id });
    await page.getByRole('button', { name: 'Refresh' }).click();
    // Before: "(deleted key)", the same for every deleted key.
    await byKey.getByRole('cell', { name: 'short-lived (deleted)', exact: true }).waitFor();
  });
});
