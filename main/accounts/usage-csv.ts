// Usage as CSV, the same for `switchyard usage --csv` and the UI's export: a summary (one row per day, model, app
// or key) or the requests themselves. Costs are exact decimal USD strings, never floats.

import {
  formatNanosAsUsd,
  usdToNanos,
  type UsageGrouping,
  type UsageRecord,
  type UsageSummaryRow,
} from '../../shared/api/index.js';
import { toCsv } from './csv.js';

const cost = (usd: number) => formatNanosAsUsd(usdToNanos(usd));

export function usageSummaryCsv(by: UsageGrouping, rows: readonly UsageSummaryRow[]): string {
  const groupColumns = by === 'key' ? ['key_id', 'key_name'] : [by];
  const header = [...groupColumns, 'requests', 'errors', 'cancelled', 'prompt_tokens', 'completion_tokens'];
  header.push('cached_tokens', 'reasoning_tokens', 'cost_usd', 'unpriced_requests');
  return toCsv(
    header,
    rows.map((row) => [
      ...(by === 'key' ? [row.group, row.label] : [row.group]),
      row.requests,
      row.errors,
      row.cancelled,
      row.prompt_tokens,
      row.completion_tokens,
      row.cached_tokens,
      row.reasoning_tokens,
      cost(row.cost),
      row.unpriced_requests,
    ]),
  );
}

const rowColumns = [
  'created_at',
  'id',
  'key_id',
  'app_title',
  'app_referer',
  'model',
  'provider',
  'streamed',
  'status',
  'finish_reason',
  'prompt_tokens',
  'completion_tokens',
  'cached_tokens',
  'reasoning_tokens',
  'cost_usd',
  'unpriced',
  'latency_ms',
  'ttft_ms',
  'error',
  'estimated',
  'dropped_tools',
] as const;

export function usageRowsCsv(rows: readonly UsageRecord[]): string {
  return toCsv(
    rowColumns,
    rows.map((row) => [
      new Date(row.created_at).toISOString(),
      row.id,
      row.key_id,
      row.app_title,
      row.app_referer,
      row.model,
      row.provider,
      row.streamed,
      row.status,
      row.finish_reason,
      row.prompt_tokens,
      row.completion_tokens,
      row.cached_tokens,
      row.reasoning_tokens,
      row.cost === null ? null : cost(row.cost),
      row.unpriced,
      row.latency_ms,
      row.ttft_ms,
      row.error,
      row.estimated === true,
      row.dropped_tools?.join(' ') ?? null,
    ]),
  );
}
