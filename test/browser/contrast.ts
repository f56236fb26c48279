// WCAG contrast as a person sees it. Between colours as a page reports them: computed CSS (`rgb(…)`, `rgba(…)`) or a
// canvas's strokeStyle and fillStyle (`#rrggbb`), so tests can say "readable" and "the same colour" in numbers; and of
// an element's text against the background really behind it (the nearest painted backgrounds of its ancestors,
// translucent ones laid over the opaque one below), worked out in the page itself (where this module's functions
// cannot be called, hence the luminance formula once more there).

import type { Locator } from 'playwright-core';

export type Rgb = [number, number, number];

/** The colour's red, green and blue (0–255); alpha is ignored, the callers compare opaque colours. */
export function parseColour(colour: string): Rgb {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(colour.trim());
  if (hex) return [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16), parseInt(hex[3]!, 16)];
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(colour.trim());
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  throw new Error(`not a colour this test can read: ${colour}`);
}

function luminance([red, green, blue]: Rgb): number {
  const linear = (channel: number) => {
    const value = channel / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
}

/** WCAG 2 contrast ratio, 1 to 21. */
export function contrast(first: string, second: string): number {
  const [lighter, darker] = [luminance(parseColour(first)), luminance(parseColour(second))].sort((a, b) => b - a);
  return (lighter! + 0.05) / (darker! + 0.05);
}

/** The same opaque colour, however written. */
export function sameColour(first: string, second: string): boolean {
  return parseColour(first).join() === parseColour(second).join();
}

// The little of the DOM the in-page code uses (the tests are type-checked without the DOM library).
interface PageElement {
  parentElement: PageElement | null;
}
interface PageWindow {
  getComputedStyle(element: PageElement): { color: string; backgroundColor: string };
}

export interface TextContrast {
  color: string;
  background: string;
  ratio: number;
}

/** The contrast ratio (1 to 21) of the element's text against what is behind it. */
export function textContrast(locator: Locator): Promise<TextContrast> {
  return locator.evaluate((element) => {
    const window = globalThis as unknown as PageWindow;
    type Rgba = [number, number, number, number];
    const parse = (text: string): Rgba => {
      const numbers = (text.match(/[\d.]+/g) ?? []).map(Number);
      return [numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 0, numbers[3] ?? 1];
    };
    const over = (top: Rgba, below: Rgba): Rgba => {
      const alpha = top[3];
      return [0, 1, 2].map((i) => top[i]! * alpha + below[i]! * (1 - alpha)).concat(1) as Rgba;
    };
    const layers: Rgba[] = [];
    for (let node: PageElement | null = element as unknown as PageElement; node; node = node.parentElement) {
      const background = parse(window.getComputedStyle(node).backgroundColor);
      if (background[3] === 0) continue;
      layers.push(background);
      if (background[3] === 1) break;
    }
    let background: Rgba = [255, 255, 255, 1];
    for (const layer of layers.reverse()) background = over(layer, background);
    const color = over(parse(window.getComputedStyle(element as unknown as PageElement).color), background);
    const luminance = (rgb: Rgba) => {
      const [r, g, b] = [0, 1, 2].map((i) => {
        const channel = rgb[i]! / 255;
        return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const [light, dark] = [luminance(color), luminance(background)].sort((a, b) => b - a);
    const show = (rgb: Rgba) => `rgb(${rgb.slice(0, 3).map(Math.round).join(', ')})`;
    return { color: show(color), background: show(background), ratio: (light! + 0.05) / (dark! + 0.05) };
  });
}
