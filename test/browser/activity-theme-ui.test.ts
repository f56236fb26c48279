// The Activity screen in light and dark, and at 720 px and wide: the chart draws its grid, axes, bars and line in
// colours that stand out from its panel (read from what uPlot really gave the canvas), its legend shows the very
// colours drawn, the chart follows a theme chosen in the app, the three breakdowns line their columns up, and a key
// that spent on an unpriced model says so the same way on Keys and on Activity.

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeUpstream } from '../support/fake-openai-upstream.js';
import { expectLooksRight } from './a11y.js';
import { contrast, sameColour } from './contrast.js';
import { requestThroughGateway, useUpstreamUi, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

useUpstreamUi(
  () => startFakeUpstream({ models: ['echo-1', 'echo-unpriced'] }),
  async (started) => {
    ui = started.ui;
    const { secret } = await ui.invoke<{ secret: string }>('keys:create', { name: 'reports' });
    // One priced and one unpriced request: the key's spend is "$… + 1 unpriced", wider than the model rows'.
    for (const model of ['fake/echo-1', 'fake/echo-unpriced']) {
      await requestThroughGateway(ui, { secret, model, app: 'Weekly report' });
    }
  },
  { prices: [{ model: 'fake/echo-1', input: 1.5, output: 6 }] },
);

interface CanvasCall {
  kind: 'stroke' | 'fill' | 'text';
  style: string;
  width: number;
}

/**
 * Runs in the page before its scripts: keeps the style of every stroke, fill and text the canvases draw, as the
 * canvas resolved it (a colour it cannot parse leaves its default black).
 */
function recordCanvasCalls() {
  type Context = {
    strokeStyle: unknown;
    fillStyle: unknown;
    lineWidth: number;
    stroke(...args: unknown[]): void;
    fill(...args: unknown[]): void;
    fillText(...args: unknown[]): void;
  };
  const scope = globalThis as unknown as {
    canvasCalls: CanvasCall[];
    CanvasRenderingContext2D: { prototype: Context };
  };
  scope.canvasCalls = [];
  const prototype = scope.CanvasRenderingContext2D.prototype;
  const { stroke, fill, fillText } = prototype;
  prototype.stroke = function (this: Context, ...args: unknown[]) {
    scope.canvasCalls.push({ kind: 'stroke', style: String(this.strokeStyle), width: this.lineWidth });
    stroke.apply(this, args);
  };
  prototype.fill = function (this: Context, ...args: unknown[]) {
    scope.canvasCalls.push({ kind: 'fill', style: String(this.fillStyle), width: this.lineWidth });
    fill.apply(this, args);
  };
  prototype.fillText = function (this: Context, ...args: unknown[]) {
    scope.canvasCalls.push({ kind: 'text', style: String(this.fillStyle), width: this.lineWidth });
    fillText.apply(this, args);
  };
}

async function openActivity(colorScheme: 'light' | 'dark', width = 1280): Promise<Page> {
  const page = await ui.newPage({ colorScheme, width });
  await page.addInitScript(recordCanvasCalls);
  await page.goto(ui.uiUrl);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity', exact: true }).click();
  await page.getByRole('region', { name: 'By key' }).getByRole('cell', { name: 'reports' }).waitFor();
  await page.locator('.chart canvas').first().waitFor();
  await page.locator('.chart .u-legend').getByText('Requests').waitFor();
  return page;
}

/** The page's getComputedStyle, for code run in the page (the tests are type-checked without the DOM library). */
type InPage = { getComputedStyle(element: unknown): { backgroundColor: string; borderTopColor: string } };

const canvasCalls = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { canvasCalls: CanvasCall[] }).canvasCalls);

/** What the chart drew last, against the panel it sits on, and the legend's swatches. */
async function chartColours(page: Page) {
  // The last full drawing: uPlot draws again on resize and theme changes.
  await expect.poll(async () => (await canvasCalls(page)).length).toBeGreaterThan(0);
  const calls = await canvasCalls(page);
  const background = await page
    .locator('.chart')
    .evaluate((chart) => (globalThis as unknown as InPage).getComputedStyle(chart.closest('.panel')!).backgroundColor);
  const markers = await page.locator('.chart .u-legend .u-series').evaluateAll((rows) =>
    rows.map((row) => {
      const marker = row.querySelector('.u-marker');
      const style = marker ? (globalThis as unknown as InPage).getComputedStyle(marker) : null;
      return {
        label: row.querySelector('.u-label')?.textContent ?? '',
        border: style?.borderTopColor ?? '',
        fill: style?.backgroundColor ?? '',
      };
    }),
  );
  return { calls, background, markers };
}

async function expectChartReadable(page: Page) {
  const { calls, background, markers } = await chartColours(page);
  const cost = markers.find((marker) => marker.label === 'Cost')!;
  const requests = markers.find((marker) => marker.label === 'Requests')!;
  // The legend's swatch of each series is the colour it is drawn in: bars filled in the Cost swatch's colour, a
  // line stroked in the Requests swatch's.
  expect(
    calls.some((call) => call.kind === 'fill' && sameColour(call.style, cost.fill)),
    `bars in ${cost.fill}`,
  ).toBe(true);
  expect(
    calls.some((call) => call.kind === 'stroke' && sameColour(call.style, requests.border)),
    `a line in ${requests.border}`,
  ).toBe(true);
  // The data stands out from the panel: 3:1, WCAG's contrast for graphics.
  for (const series of [cost.fill, requests.border])
    expect(contrast(series, background), `series ${series}`).toBeGreaterThan(3);
  // Axis labels are text: 4.5:1.
  const texts = calls.filter((call) => call.kind === 'text');
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) expect(contrast(text.style, background), `axis text ${text.style}`).toBeGreaterThan(4.5);
  // Every other stroke is the grid or a tick: faint, yet seen (1.5:1).
  const seriesColours = [cost.fill, cost.border, requests.border];
  const grid = calls.filter(
    (call) => call.kind === 'stroke' && !seriesColours.some((colour) => sameColour(colour, call.style)),
  );
  expect(grid.length).toBeGreaterThan(0);
  for (const line of grid) expect(contrast(line.style, background), `grid ${line.style}`).toBeGreaterThanOrEqual(1.5);
  // The line's points are hollow, in the panel's colour (not a white dot on the dark theme).
  for (const fill of calls.filter((call) => call.kind === 'fill' && !sameColour(call.style, cost.fill)))
    expect(sameColour(fill.style, background), `point fill ${fill.style}`).toBe(true);
}

describe('the activity chart in light and dark', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`draws its axes, grid and series visibly in ${colorScheme}, in the legend's colours`, async () => {
      const page = await openActivity(colorScheme);
      await expectChartReadable(page);
      await ui.screenshot(page, `activity-chart-${colorScheme}`);
    });
  }

  it('draws again in the theme chosen in the app', async () => {
    const page = await openActivity('light');
    const panel = page.locator('.chart').locator('xpath=ancestor::section[1]');
    const lightBackground = await panel.evaluate(
      (element) => (globalThis as unknown as InPage).getComputedStyle(element).backgroundColor,
    );
    await page.evaluate(() => {
      (globalThis as unknown as { canvasCalls: CanvasCall[] }).canvasCalls.length = 0;
    });
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
    await expect
      .poll(() =>
        panel.evaluate((element) => (globalThis as unknown as InPage).getComputedStyle(element).backgroundColor),
      )
      .not.toBe(lightBackground);
    await expectChartReadable(page);
  });
});

describe('the breakdowns', () => {
  for (const width of [720, 1280]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`line up their columns, headed alike, at ${width} px in ${colorScheme}`, async () => {
        const page = await openActivity(colorScheme, width);
        const columns = [];
        for (const [region, first] of [
          ['By model', 'Model'],
          ['By app', 'App'],
          ['By key', 'Key'],
        ] as const) {
          const table = page.getByRole('region', { name: region }).getByRole('table');
          const headers = await table.getByRole('columnheader').allTextContents();
          expect(headers).toEqual([first, 'Requests', 'Cost']);
          const tableBox = (await table.boundingBox())!;
          const boxes = await Promise.all(
            ['Requests', 'Cost'].map(async (name) => (await table.getByRole('columnheader', { name }).boundingBox())!),
          );
          columns.push({
            top: tableBox.y,
            width: tableBox.width,
            offsets: boxes.map((box) => Math.round(box.x - tableBox.x)),
            widths: boxes.map((box) => Math.round(box.width)),
          });
        }
        for (const other of columns.slice(1)) {
          expect(Math.abs(other.width - columns[0]!.width)).toBeLessThanOrEqual(1);
          // Side by side (wide), their header rows are at one height too.
          if (width === 1280) expect(Math.abs(other.top - columns[0]!.top)).toBeLessThanOrEqual(1);
          for (const index of [0, 1]) {
            expect(Math.abs(other.offsets[index]! - columns[0]!.offsets[index]!)).toBeLessThanOrEqual(1);
            expect(Math.abs(other.widths[index]! - columns[0]!.widths[index]!)).toBeLessThanOrEqual(1);
          }
        }
        // The key's "$… + 1 unpriced" fits its column: nothing overflows or overlaps.
        await expectLooksRight(page, [page.getByRole('region', { name: 'By key' })]);
      });
    }
  }
});

describe('an unpriced spend', () => {
  it('reads the same on Keys as on Activity', async () => {
    const page = await openActivity('light');
    const activityCell = page
      .getByRole('region', { name: 'By key' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'reports' }) })
      .getByRole('cell')
      .last();
    const shown = await activityCell.textContent();
    expect(shown).toMatch(/^\$0\.0000\d+ \+ 1 unpriced$/);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Keys', exact: true }).click();
    const keys = page.getByRole('table', { name: 'API keys' });
    const row = keys.getByRole('row').filter({ has: page.getByRole('cell', { name: 'reports', exact: true }) });
    await row.waitFor();
    const headers = await keys.getByRole('columnheader').allTextContents();
    const spent = row.getByRole('cell').nth(headers.indexOf('Spent'));
    await expect.poll(() => spent.textContent()).toBe(shown);
  });
});
