// How amounts, counts and times read on the screens.

import { formatUsd, usdToNanos } from '../../../shared/api/index.js';

/** Exact to the nano-dollar, at least two decimals: `$0.75`, `$0.000012`. */
export function money(usd: number | null | undefined): string {
  return formatUsd(usdToNanos(usd ?? 0));
}

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

/** USD per million tokens as typed and shown: `2.5`, `0.075`. */
export function perMillion(value: number | null): string {
  return value === null ? '=input' : `$${value}`;
}
