// The total of a usage summary, summed exactly (costs in nano-dollars): for the CLI's TOTAL line and the UI's cards.

import { nanosToUsd, usdToNanos } from './money.js';
import type { UsageSummaryRow } from './usage.js';

export function totalOfUsage(rows: readonly UsageSummaryRow[], label = 'TOTAL'): UsageSummaryRow {
  const total: UsageSummaryRow = {
    group: label,
    label,
    requests: 0,
    errors: 0,
    cancelled: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    cached_tokens: 0,
    reasoning_tokens: 0,
    cost: 0,
    unpriced_requests: 0,
  };
  let costNanos = 0;
  for (const row of rows) {
    total.requests += row.requests;
    total.errors += row.errors;
    total.cancelled += row.cancelled;
    total.prompt_tokens += row.prompt_tokens;
    total.completion_tokens += row.completion_tokens;
    total.cached_tokens += row.cached_tokens;
    total.reasoning_tokens += row.reasoning_tokens;
    total.unpriced_requests += row.unpriced_requests;
    costNanos += usdToNanos(row.cost);
  }
  total.cost = nanosToUsd(costNanos);
  return total;
}
