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

/** A column of the requests' CSV: its header, and its cell of a row. */
type RowColumn = readonly [header: string, cell: (row: UsageRecord) => CsvValue];

/** The fields of a usage record that a CSV cell holds as they are. */
type PlainField = {
  [Field in keyof UsageRecord]-?: UsageRecord[Field] extends CsvValue ? Field : never;
}[keyof UsageRecord];

/** Columns that copy a field of the record, named as the field. */
function copied(...fields: PlainField[]): RowColumn[] {
  return fields.map((field) => [field, (row) => row[field]]);
}

/** Header and cell side by side, so that the two cannot drift apart. */
const rowColumns: readonly RowColumn[] = [
  ['created_at', (row) => new Date(row.created_at).toISOString()],
  ...copied('id', 'key_id', 'app_title', 'app_referer', 'model', 'provider', 'streamed', 'status', 'finish_reason'),
  ...copied('prompt_tokens', 'completion_tokens', 'cached_tokens', 'reasoning_tokens'),
  ['cost_usd', (row) => (row.cost === null ? null : cost(row.cost))],
  ...copied('unpriced', 'latency_ms', 'ttft_ms', 'error'),
  ['estimated', (row) => row.estimated === true],
  ['dropped_tools', (row) => row.dropped_tools?.join(' ') ?? null],
  // What the response cache did (empty when it was off) and, for a hit, what the answer cost when the upstream gave it.
  ...copied('cache'),
  ['saved_cost_usd', (row) => (row.saved_cost === undefined ? null : cost(row.saved_cost))],
];

export function usageRowsCsv(rows: readonly UsageRecord[]): string {
  return toCsv(
    rowColumns.map(([header]) => header),
    rows.map((row) => rowColumns.map(([, cell]) => cell(row))),
  );
}
