// How counts, times and prices read on the screens. Amounts of money read the same everywhere, screens and CLI,
// through shared/api/money.ts (formatMoney, formatCost).

import { formatUsdExactly } from '../../../shared/api/index.js';

export function count(value: number): string {
  return value.toLocaleString();
}

/** A local date and time, short; `never` for null. */
export function when(value: string | number | null | undefined, never = 'never'): string {
  if (value === null || value === undefined) return never;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString(undefined, dateTimeStyle);
}

const dateTimeStyle: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/** USD per million tokens exactly as set: `$2.50`, `$0.075`; `=input` for a cache price that is the input's. */
export function perMillion(value: number | null): string {
  return value === null ? '=input' : formatUsdExactly(value);
}
