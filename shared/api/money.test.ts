import { describe, expect, it } from 'vitest';
import {
  formatCost,
  formatMoney,
  formatNanosAsUsd,
  formatUsdExactly,
  formatUsd,
  nanosToUsd,
  usdToNanos,
} from './money.js';

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

  it('formats exports exactly, with at least two decimals', () => {
    expect(formatNanosAsUsd(12_500_000_000)).toBe('12.50');
    expect(formatNanosAsUsd(12_345)).toBe('0.000012345');
    expect(formatNanosAsUsd(0)).toBe('0.00');
  });

  it('shows amounts in cents at and above a cent, with two significant digits below, a sign before the dollar', () => {
    expect(formatMoney(2.305336)).toBe('$2.31');
    expect(formatMoney(12.5)).toBe('$12.50');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(null)).toBe('$0.00');
    expect(formatMoney(0.01)).toBe('$0.01');
    expect(formatMoney(0.017)).toBe('$0.02');
    expect(formatMoney(0.0099)).toBe('$0.0099');
    // Two significant digits that round up to a cent read as a cent, not as $0.010.
    expect(formatMoney(0.00996)).toBe('$0.01');
    expect(formatMoney(0.0023456)).toBe('$0.0023');
    expect(formatMoney(0.0000345)).toBe('$0.000035');
    expect(formatUsd(1)).toBe('$0.000000001');
    expect(formatUsd(-2_500_000_000)).toBe('-$2.50');
    expect(formatMoney(-0.0000123)).toBe('-$0.000012');
    expect(formatMoney(1234.567)).toBe('$1234.57');
  });

  it('says unpriced instead of a $0 that looks free', () => {
    expect(formatCost(0, true)).toBe('unpriced');
    expect(formatCost(0.5, false)).toBe('$0.50');
    expect(formatCost(0, false)).toBe('$0.00');
    expect(formatCost(0, { requests: 2, unpriced_requests: 2 })).toBe('unpriced');
    expect(formatCost(1.2, { requests: 5, unpriced_requests: 3 })).toBe('$1.20 + 3 unpriced');
    expect(formatCost(1.2, { requests: 5, unpriced_requests: 0 })).toBe('$1.20');
  });

  it('shows prices per million tokens exactly as set', () => {
    expect(formatUsdExactly(2.5)).toBe('$2.50');
    expect(formatUsdExactly(0.075)).toBe('$0.075');
  });
});
