import { describe, expect, it } from 'vitest';
import { formatNanosAsUsd, formatUsd, nanosToUsd, usdToNanos } from './money.js';

describe('money', () => {
  it('converts USD to whole nano-dollars and back exactly', () => {
    expect(usdToNanos(1)).toBe(1_000_000_000);
    expect(usdToNanos(0.1)).toBe(100_000_000);
    expect(usdToNanos(0.000000001)).toBe(1);
    expect(usdToNanos(null)).toBe(0);
    expect(usdToNanos(Number.NaN)).toBe(0);
    // What rows carry as USD comes back as the very same integer, for amounts far above any real spend.
    for (const nanos of [1, 7, 57_500, 2_745_000, 123_456_789, 999_999_999_999, 2 ** 50]) {
      expect(usdToNanos(nanosToUsd(nanos))).toBe(nanos);
    }
  });

  it('formats exactly, with at least two decimals and a sign before the dollar', () => {
    expect(formatNanosAsUsd(12_500_000_000)).toBe('12.50');
    expect(formatNanosAsUsd(12_345)).toBe('0.000012345');
    expect(formatNanosAsUsd(0)).toBe('0.00');
    expect(formatUsd(-2_500_000_000)).toBe('-$2.50');
    expect(formatUsd(1)).toBe('$0.000000001');
  });
});
