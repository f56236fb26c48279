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

/** `"$12.50"`, `"-$0.000012"`: formatNanosAsUsd with a dollar sign. */
export function formatUsd(nanos: number): string {
  const amount = formatNanosAsUsd(nanos);
  return amount.startsWith('-') ? `-$${amount.slice(1)}` : `$${amount}`;
}
