// WCAG contrast between colours as a page reports them: computed CSS (`rgb(…)`, `rgba(…)`) or a canvas's
// strokeStyle and fillStyle (`#rrggbb`), so tests can say "readable" and "the same colour" in numbers.

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
