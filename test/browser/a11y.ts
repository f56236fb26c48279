// What "looks right" means in a browser test, as assertions rather than screenshots: an axe-core audit with no
// serious or critical violation, and a layout where nothing is wider than the window, the navigation and the
// screen do not overlap, and no control in a table, card, panel or dialog is clipped or lies over another.

import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** The offending elements' selectors and axe's summary of what is wrong with each. */
  nodes: { target: string[]; failureSummary: string }[];
}

// The little of the DOM that the in-page code below uses: the test code is type-checked without the DOM library
// (it runs in node), and these functions run in the page, where they find the real objects on globalThis.
interface PageBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
interface PageElement {
  tagName: string;
  className: unknown;
  textContent: string | null;
  parentElement: PageElement | null;
  scrollWidth: number;
  clientWidth: number;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): PageBox;
  checkVisibility(options: { visibilityProperty: boolean }): boolean;
  closest(selector: string): PageElement | null;
  contains(other: PageElement): boolean;
  querySelectorAll(selector: string): Iterable<PageElement>;
}
interface PageWindow {
  document: {
    documentElement: PageElement;
    scrollingElement: PageElement | null;
    querySelector(selector: string): PageElement | null;
    querySelectorAll(selector: string): Iterable<PageElement>;
  };
  getComputedStyle(element: PageElement): { overflowX: string; overflowY: string };
  axe: {
    run(context: unknown, options: unknown): Promise<{ violations: (AxeViolation & { nodes: unknown[] })[] }>;
  };
}

/**
 * Runs axe-core over the page and answers the violations of impact serious or critical. axe is added with the
 * page's addScriptTag from a same-origin address that the test serves itself, so the UI's CSP (script-src 'self',
 * no inline scripts) stays on and still catches everything else.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in globalThis);
  if (!loaded) {
    const url = new URL('/test-only/axe.min.js', page.url()).href;
    await page.route(url, (route) => route.fulfill({ contentType: 'text/javascript', body: axeSource }));
    await page.addScriptTag({ url });
  }
  const violations = await page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as PageWindow;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: (violation.nodes as { target: string[]; failureSummary: string }[]).map((node) => ({
        target: node.target,
        failureSummary: node.failureSummary,
      })),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/**
 * Layout problems in words (none: an empty list). Looks at the page's own geometry: the document's width, the
 * boxes of the navigation and the screen, and every control inside a table, card, panel or dialog against the
 * box that clips it and against the other controls of its container.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const window = globalThis as unknown as PageWindow;
    const document = window.document;
    const problems: string[] = [];
    const describe = (element: PageElement) => {
      const label =
        element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? element.tagName.toLowerCase();
      return `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ')[0]}` : ''} "${label}"`;
    };
    // checkVisibility() also leaves out what a closed <details> hides.
    const visible = (element: PageElement) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true });
    };
    // Half a pixel of slack for sub-pixel rounding.
    const overlap = (a: PageBox, b: PageBox) =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
    const inside = (inner: PageBox, outer: PageBox) =>
      inner.left >= outer.left - 0.5 &&
      inner.right <= outer.right + 0.5 &&
      inner.top >= outer.top - 0.5 &&
      inner.bottom <= outer.bottom + 0.5;

    const width = document.documentElement.clientWidth;
    const scrollWidth = document.scrollingElement?.scrollWidth ?? 0;
    if (scrollWidth > width) problems.push(`the page is ${scrollWidth}px wide in a ${width}px window`);

    const navigation = document.querySelector('nav[aria-label="Main"]');
    const main = document.querySelector('main');
    if (!navigation || !visible(navigation)) problems.push('the main navigation is not visible');
    if (!main || !visible(main)) problems.push('the screen is not visible');
    if (navigation && main && overlap(navigation.getBoundingClientRect(), main.getBoundingClientRect())) {
      problems.push('the navigation and the screen overlap');
    }
    for (const region of [navigation, main, ...document.querySelectorAll('main section, dialog[open]')]) {
      if (!region || !visible(region)) continue;
      const box = region.getBoundingClientRect();
      if (box.left < -0.5 || box.right > width + 0.5) problems.push(`${describe(region)} is cut off at the side`);
    }

    const containers = document.querySelectorAll('table, [role="listitem"], .panel, .card, dialog[open]');
    const controls = 'button, a[href], input:not([type="hidden"]), select, textarea, [role="switch"]';
    for (const container of containers) {
      if (!visible(container)) continue;
      const inContainer = [...container.querySelectorAll(controls)].filter(
        (control) =>
          visible(control) && control.closest('table, [role="listitem"], .panel, .card, dialog[open]') === container,
      );
      for (const control of inContainer) {
        const box = control.getBoundingClientRect();
        // The nearest ancestor that clips what overflows it (scrolling ones included: a control must not need it).
        for (let ancestor = control.parentElement; ancestor; ancestor = ancestor.parentElement) {
          const style = window.getComputedStyle(ancestor);
          if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
          if (!inside(box, ancestor.getBoundingClientRect()) && !['auto', 'scroll'].includes(style.overflowY)) {
            problems.push(`${describe(control)} is clipped by ${describe(ancestor)}`);
          }
          break;
        }
        if (control.tagName === 'BUTTON' && control.scrollWidth > control.clientWidth + 1) {
          problems.push(`${describe(control)}'s text does not fit in it`);
        }
      }
      for (let first = 0; first < inContainer.length; first += 1) {
        for (let second = first + 1; second < inContainer.length; second += 1) {
          const [a, b] = [inContainer[first]!, inContainer[second]!];
          const label = a.closest('label');
          if (a.contains(b) || b.contains(a) || (label && label === b.closest('label'))) continue;
          if (overlap(a.getBoundingClientRect(), b.getBoundingClientRect())) {
            problems.push(`${describe(a)} and ${describe(b)} overlap`);
          }
        }
      }
    }
    return problems;
  });
}

/** The elements a person needs on this screen are visible and inside the window. */
export async function expectVisible(page: Page, elements: Locator[]): Promise<void> {
  const viewport = page.viewportSize()!;
  for (const element of elements) {
    expect(await element.isVisible(), `${element} is visible`).toBe(true);
    const box = (await element.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= viewport.width, `${element} is inside the window`).toBe(true);
  }
}

/** The screen as it is now: laid out without overlaps or clipping, and with no serious accessibility problem. */
export async function expectLooksRight(page: Page, keyElements: Locator[] = []): Promise<void> {
  await expectVisible(page, [
    page.getByRole('navigation', { name: 'Main' }),
    page.getByRole('heading', { level: 1 }).first(),
    ...keyElements,
  ]);
  expect(await layoutProblems(page)).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
}
