// Usage as CSV, the same for `switchyard usage --csv` and the UI's export: a summary (one row per day, model, app
// or key) or the requests themselves. Costs are exact decimal USD strings, never floats.

import {
  formatNanosAsUsd,
  usdToNanos,
  type UsageGrouping,
  type UsageRecord,
  type UsageSummaryRow,
} from '../../shared/api/index.js';
import { toCsv, type CsvValue } from './csv.js';

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

/** Each column of the requests' CSV: its header and its cell, side by side so that the two cannot drift apart. */
const rowColumns: readonly (readonly [string, (row: UsageRecord) => CsvValue])[] = [
  ['created_at', (row) => new Date(row.created_at).toISOString()],
  ['id', (row) => row.id],
  ['key_id', (row) => row.key_id],
  ['app_title', (row) => row.app_title],
  ['app_referer', (row) => row.app_referer],
  ['model', (row) => row.model],
  ['provider', (row) => row.provider],
  ['streamed', (row) => row.streamed],
  ['status', (row) => row.status],
  ['finish_reason', (row) => row.finish_reason],
  ['prompt_tokens', (row) => row.prompt_tokens],
  ['completion_tokens', (row) => row.completion_tokens],
  ['cached_tokens', (row) => row.cached_tokens],
  ['reasoning_tokens', (row) => row.reasoning_tokens],
  ['cost_usd', (row) => (row.cost === null ? null : cost(row.cost))],
  ['unpriced', (row) => row.unpriced],
  ['latency_ms', (row) => row.latency_ms],
  ['ttft_ms', (row) => row.ttft_ms],
  ['error', (row) => row.error],
  ['estimated', (row) => row.estimated === true],
  ['dropped_tools', (row) => row.dropped_tools?.join(' ') ?? null],
];

export function usageRowsCsv(rows: readonly UsageRecord[]): string {
  return toCsv(
    rowColumns.map(([header]) => header),
    rows.map((row) => rowColumns.map(([, cell]) => cell(row))),
  );
}
