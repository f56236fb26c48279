// Label values a scrape may carry, kept few: Prometheus keeps one series per distinct set of labels, so a label
// fed by callers (a model name asked for, a route) must not grow without end. Values come from what the gateway
// itself decided (a provider that answered, a registered route pattern), and past a bound they share `other`.

import type { UsageRecord } from '../../../shared/api/index.js';

/** The value every label past its bound, or from outside what the gateway knows, takes instead. */
export const otherLabel = 'other';

/** A set of label values that admits the first `limit` distinct ones and maps the rest to `other`. */
export class BoundedLabel {
  private readonly seen = new Set<string>();

  constructor(private readonly limit: number) {}

  of(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.limit) return otherLabel;
    this.seen.add(value);
    return value;
  }
}

/**
 * The model label of a usage row: the `<provider>/<model>` only when a configured provider (the row's) took it, so
 * that a caller asking for made-up names makes no new series; `other` otherwise.
 */
export function modelLabelOf(model: string, provider: string | null, models: BoundedLabel): string {
  if (provider === null || !model.startsWith(`${provider}/`)) return otherLabel;
  return models.of(model);
}

/** The response cache's verdict on a row: `hit`, `miss` or `bypass`, or `none` where no cache looked at it. */
export function cacheLabelOf(row: Pick<UsageRecord, 'cache'>): string {
  return row.cache ?? 'none';
}
