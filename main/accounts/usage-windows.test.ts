import { describe, expect, it } from 'vitest';
import { dayOf, windowEnd, windowStart } from './usage-windows.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('limit windows (UTC)', () => {
  it('daily: from 00:00 UTC today to 00:00 tomorrow', () => {
    expect(iso(windowStart('daily', at('2026-03-10T23:59:59.999Z')))).toBe('2026-03-10T00:00:00.000Z');
    expect(iso(windowStart('daily', at('2026-03-11T00:00:00.000Z')))).toBe('2026-03-11T00:00:00.000Z');
    expect(iso(windowEnd('daily', at('2026-03-10T12:00:00Z')))).toBe('2026-03-11T00:00:00.000Z');
  });

  it('weekly: from Monday 00:00 UTC, Sunday included in the week before', () => {
    // 2026-03-09 is a Monday.
    expect(iso(windowStart('weekly', at('2026-03-09T00:00:00Z')))).toBe('2026-03-09T00:00:00.000Z');
    expect(iso(windowStart('weekly', at('2026-03-15T23:59:59Z')))).toBe('2026-03-09T00:00:00.000Z');
    expect(iso(windowStart('weekly', at('2026-03-16T00:00:00Z')))).toBe('2026-03-16T00:00:00.000Z');
    expect(iso(windowEnd('weekly', at('2026-03-12T08:00:00Z')))).toBe('2026-03-16T00:00:00.000Z');
  });

  it('monthly: from the 1st 00:00 UTC, across year ends and leap years', () => {
    expect(iso(windowStart('monthly', at('2026-03-31T23:00:00Z')))).toBe('2026-03-01T00:00:00.000Z');
    expect(iso(windowEnd('monthly', at('2026-12-15T00:00:00Z')))).toBe('2027-01-01T00:00:00.000Z');
    expect(iso(windowEnd('monthly', at('2028-02-10T00:00:00Z')))).toBe('2028-03-01T00:00:00.000Z');
  });

  it('never: since the beginning, no end', () => {
    expect(windowStart('never', at('2026-03-10T12:00:00Z'))).toBe(0);
    expect(windowEnd('never', at('2026-03-10T12:00:00Z'))).toBeNull();
  });

  it('every window starts on a day boundary, the unit of the per-day spend buckets', () => {
    for (const reset of ['daily', 'weekly', 'monthly', 'never'] as const) {
      const start = windowStart(reset, at('2026-07-19T17:45:00Z'));
      expect(start % 86_400_000).toBe(0);
      expect(dayOf(start) * 86_400_000).toBe(start);
    }
  });
});
