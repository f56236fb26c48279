import { describe, expect, it } from 'vitest';
import { normalizeMath } from './math.js';

describe('normalizeMath', () => {
  it('turns \\(…\\) into inline dollars and \\[…\\] into a display block', () => {
    expect(normalizeMath('so \\( a^2 \\) holds')).toBe('so $$a^2$$ holds');
    expect(normalizeMath('Then:\n\\[\n\\int_0^1 x\\,dx\n\\]\ndone')).toBe('Then:\n\n$$\n\\int_0^1 x\\,dx\n$$\n\ndone');
  });

  it('makes a $$…$$ alone on its line a display block', () => {
    expect(normalizeMath('$$E = mc^2$$')).toBe('$$\nE = mc^2\n$$');
  });

  it('leaves code alone', () => {
    const code = '```tex\n\\(x\\) and $$y$$\n```\nand `\\(z\\)`';
    expect(normalizeMath(code)).toBe(code);
  });

  it('leaves text without math as it is', () => {
    expect(normalizeMath('Prices: $5 and $10.')).toBe('Prices: $5 and $10.');
  });
});
