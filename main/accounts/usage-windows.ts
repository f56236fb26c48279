// The windows a key's spend limit counts in, in UTC: since 00:00 today (daily), since Monday 00:00 (weekly),
// since the 1st of the month 00:00 (monthly), or since ever (never). Every start is a UTC day boundary, so a window
// is also a whole number of days for the per-day spend buckets.

import type { LimitReset } from '../../shared/api/index.js';
import { msPerDay } from '../store/index.js';

/** When the window that contains `now` began, in Unix milliseconds. */
export function windowStart(reset: LimitReset, now: number): number {
  const date = new Date(now);
  const today = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  switch (reset) {
    case 'daily':
      return today;
    case 'weekly':
      // getUTCDay: 0 = Sunday … 6 = Saturday; weeks start on Monday (ISO 8601).
      return today - ((date.getUTCDay() + 6) % 7) * msPerDay;
    case 'monthly':
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    case 'never':
      return 0;
  }
}

/** When the window that contains `now` ends (the next reset), or null for `never`. */
export function windowEnd(reset: LimitReset, now: number): number | null {
  const start = new Date(windowStart(reset, now));
  switch (reset) {
    case 'daily':
      return start.getTime() + msPerDay;
    case 'weekly':
      return start.getTime() + 7 * msPerDay;
    case 'monthly':
      return Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
    case 'never':
      return null;
  }
}

/** Days since 1970-01-01 UTC: the bucket of key_spend_daily a time falls in. */
export function dayOf(ms: number): number {
  return Math.floor(ms / msPerDay);
}
