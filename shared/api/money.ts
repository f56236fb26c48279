// Money: USD at the edges (HTTP, CLI, UI), whole nano-dollars (1e-9 USD) inside, so that balances and sums of
// usage are integer arithmetic and reconcile exactly. Pure functions; shared by main and renderer.

export const nanosPerUsd = 1_000_000_000;

/**
 * USD → whole nano-dollars. A non-finite amount counts as 0. Exact for every amount with at most 9 decimals
 * below about $2 million: nanos / 1e9 * 1e9 rounds back to the same integer.
 */
export function usdToNanos(usd: number | null | undefined): number {
  return typeof usd === 'number' && Number.isFinite(usd) ? Math.round(usd * nanosPerUsd) : 0;
}

export function nanosToUsd(nanos: number): number {
  return nanos / nanosPerUsd;
}

/** `12.5` → `"12.50"`, `0.000012345` → `"0.000012345"`: exact, at least two decimals, no trailing zeros beyond. */
export function formatNanosAsUsd(nanos: number): string {
  const sign = nanos < 0 ? '-' : '';
  const magnitude = Math.abs(Math.round(nanos));
  const whole = Math.floor(magnitude / nanosPerUsd);
  const fraction = String(magnitude % nanosPerUsd)
    .padStart(9, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `${sign}${whole}.${fraction}`;
}

const nanosPerCent = 10_000_000;

/**
 * How an amount of money reads to a person, the same on every screen, CLI table and message: whole cents at and
 * above a cent (`$2.31`, `$0.01`, `-$2.50`), two significant digits below one (`$0.0023`, `$0.000035`), `$0.00` for
 * nothing. Rounding is half away from zero, in integers. Exports (CSV, JSON) keep the exact formatNanosAsUsd.
 */
export function formatUsd(nanos: number): string {
  const sign = nanos < 0 ? '-' : '';
  const magnitude = Math.abs(Math.round(nanos));
  const belowACent = magnitude > 0 ? twoSignificantDigits(magnitude) : 0;
  const shown = belowACent > 0 && belowACent < nanosPerCent ? belowACent : roundTo(magnitude, nanosPerCent);
  return `${sign}$${formatNanosAsUsd(shown)}`;
}

/** formatUsd of an amount in USD; null or undefined read as nothing spent. */
export function formatMoney(usd: number | null | undefined): string {
  return formatUsd(usdToNanos(usd ?? 0));
}

/**
 * What something cost: `unpriced` for a request to a model without a known price (its 0 is not free); for a sum of
 * requests, `unpriced` when none had a price and `$1.20 + 3 unpriced` when some had none; else formatMoney.
 */
export function formatCost(usd: number, unpriced: boolean | { requests: number; unpriced_requests: number }): string {
  if (typeof unpriced === 'boolean') return unpriced ? 'unpriced' : formatMoney(usd);
  if (unpriced.unpriced_requests === 0) return formatMoney(usd);
  if (unpriced.unpriced_requests >= unpriced.requests && usdToNanos(usd) === 0) return 'unpriced';
  return `${formatMoney(usd)} + ${unpriced.unpriced_requests} unpriced`;
}

/**
 * USD exactly as given, at least two decimals (`$2.50`, `$0.075`): for prices per million tokens, which rounding
 * would change, and a chart's axis marks, which rounding would make equal.
 */
export function formatUsdExactly(usd: number): string {
  return `$${formatNanosAsUsd(usdToNanos(usd))}`;
}

function roundTo(nanos: number, unit: number): number {
  return Math.round(nanos / unit) * unit;
}

function twoSignificantDigits(nanos: number): number {
  return roundTo(nanos, 10 ** Math.max(0, String(nanos).length - 2));
}
