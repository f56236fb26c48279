// The usage log as both engines keep it: one column per field of UsageRecord, under the same name; the queries
// and the summary's groups.

import { usdToNanos, type UsageGrouping, type UsageRecord } from '../../../shared/api/index.js';

export interface UsageQuery {
  /** Only rows whose created_at is at or after this (Unix milliseconds). */
  sinceMs?: number;
  /** At most this many rows; all of them when omitted. */
  limit?: number;
}

export interface UsageSummaryQuery {
  by: UsageGrouping;
  sinceMs?: number;
  untilMs?: number;
}

/** One group of a summary; costs in whole nano-dollars. */
export interface UsageSummaryGroup {
  group: string;
  requests: number;
  errors: number;
  cancelled: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  costNanos: number;
  unpricedRequests: number;
}

export type UsageColumns = {
  [Field in keyof UsageRecord]-?: NonNullable<UsageRecord[Field]> extends boolean
    ? number
    : NonNullable<UsageRecord[Field]> extends string[]
      ? string | null
      : UsageRecord[Field];
};
/** What gets bound on insert: any value may be null, and NOT NULL columns reject the row then. */
export type UsageBindings = { [Field in keyof UsageColumns]: UsageColumns[Field] | null } & {
  /** The exact cost, derived from `cost` at this boundary (see shared/api/money.ts). */
  cost_nanos: number;
};

/** The columns of a UsageRecord in the table's order, as toUsageBindings writes them (both engines). */
export const usageFields = Object.keys(toUsageBindings({} as UsageRecord)).filter(
  (field) => field !== 'cost_nanos',
) as (keyof UsageColumns)[];

// Lenient in: rows come from request handlers, so coerce what can be coerced (a fractional latency, an
// undefined optional field) and leave only truly bad rows (a missing id or model) for SQLite to reject.
// One field per column, in the table's order, written out: this runs for every request, and building the row from a
// table of coercions (Object.fromEntries, then a spread) cost over 20 times as much.
export function toUsageBindings(record: UsageRecord): UsageBindings {
  return {
    id: text(record.id),
    created_at: integer(record.created_at),
    key_id: text(record.key_id),
    app_title: text(record.app_title),
    app_referer: text(record.app_referer),
    model: text(record.model),
    provider: text(record.provider),
    streamed: flag(record.streamed),
    status: integer(record.status),
    finish_reason: text(record.finish_reason),
    prompt_tokens: integer(record.prompt_tokens),
    completion_tokens: integer(record.completion_tokens),
    cached_tokens: integer(record.cached_tokens),
    reasoning_tokens: integer(record.reasoning_tokens),
    cost: real(record.cost),
    latency_ms: integer(record.latency_ms),
    ttft_ms: integer(record.ttft_ms),
    error: text(record.error),
    unpriced: flag(record.unpriced),
    estimated: flag(record.estimated),
    dropped_tools: list(record.dropped_tools),
    cache: record.cache ?? null,
    saved_cost: record.saved_cost ?? null,
    cost_nanos: usdToNanos(real(record.cost)),
  };
}

export function toUsageRecord({ estimated, dropped_tools, cache, saved_cost, ...columns }: UsageColumns): UsageRecord {
  return {
    ...columns,
    ...(cache ? { cache } : {}),
    ...(saved_cost !== null && saved_cost !== undefined ? { saved_cost } : {}),
    streamed: columns.streamed !== 0,
    unpriced: columns.unpriced !== 0,
    ...(estimated !== 0 ? { estimated: true } : {}),
    ...(dropped_tools ? { dropped_tools: dropped_tools.split(',') } : {}),
  };
}

function flag(value: unknown): number {
  return value ? 1 : 0;
}

/** A list of names (no commas in them) as one column; null when empty. */
function list(value: unknown): string | null {
  if (!Array.isArray(value)) return null;
  const names = value.filter((name): name is string => typeof name === 'string' && name !== '');
  return names.length > 0 ? names.join(',') : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null;
}

function real(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
