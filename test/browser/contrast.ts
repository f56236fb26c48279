// The WCAG contrast of text as a person sees it: the element's computed text colour against the background that
// is really behind it (the nearest painted backgrounds of its ancestors, translucent ones laid over the opaque one
// below), in the page itself.

import type { Locator } from 'playwright-core';

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
