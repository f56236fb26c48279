// SQL for usage_log in PostgreSQL's dialect, answering exactly what the SQLite engine's UsageTable answers for the
// same rows (../usage-table.ts): the same coercion of what request handlers record, the same orders (text compared
// byte by byte, as SQLite does, whatever the database's collation), the same summaries.

import type pg from 'pg';
import { usdToNanos, type UsageGrouping, type UsageRecord } from '../../../shared/api/index.js';
import type { SpentUsage } from '../spend-table.js';
import type { UsageQuery, UsageSummaryGroup, UsageSummaryQuery } from '../usage-table.js';

type UsageField = keyof Required<UsageRecord>;

// Lenient in, as the SQLite engine: a fractional latency is rounded, a value of the wrong type becomes null, and
// only truly bad rows (a missing id or model) are left for the NOT NULL constraints to reject.
// One entry per column, in the table's order: its array type for unnest, and how the record's field is bound.
const bind: { [Field in UsageField]: { type: string; value: (value: unknown) => unknown } } = {
  id: { type: 'text', value: text },
  created_at: { type: 'bigint', value: integer },
  key_id: { type: 'text', value: text },
  app_title: { type: 'text', value: text },
  app_referer: { type: 'text', value: text },
  model: { type: 'text', value: text },
  provider: { type: 'text', value: text },
  streamed: { type: 'boolean', value: Boolean },
  status: { type: 'bigint', value: integer },
  finish_reason: { type: 'text', value: text },
  prompt_tokens: { type: 'bigint', value: integer },
  completion_tokens: { type: 'bigint', value: integer },
  cached_tokens: { type: 'bigint', value: integer },
  reasoning_tokens: { type: 'bigint', value: integer },
  cost: { type: 'double precision', value: real },
  latency_ms: { type: 'bigint', value: integer },
  ttft_ms: { type: 'bigint', value: integer },
  error: { type: 'text', value: text },
  unpriced: { type: 'boolean', value: Boolean },
  estimated: { type: 'boolean', value: Boolean },
};

const fields = Object.keys(bind) as UsageField[];
const columns = fields.join(', ');

const insertStatement = `
  INSERT INTO usage_log (${columns}, cost_nanos)
  SELECT * FROM unnest(${fields.map((field, index) => `$${index + 1}::${bind[field].type}[]`).join(', ')},
                       $${fields.length + 1}::bigint[])
  ON CONFLICT (id) DO NOTHING
  RETURNING key_id AS "keyId", created_at AS "createdAt", cost_nanos AS "costNanos"`;

// Fixed SQL per grouping: the grouping is never interpolated from input. `COLLATE "C"` orders text as SQLite does.
const groupExpressions: Record<UsageGrouping, string> = {
  day: "to_char(to_timestamp(created_at / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
  model: 'model',
  app: "coalesce(app_title, app_referer, '')",
  key: 'key_id',
};

/** Days in calendar order; the others most spent first. */
function summaryOrder(by: UsageGrouping): string {
  const group = `${groupExpressions[by]} COLLATE "C"`;
  return by === 'day' ? group : `"costNanos" DESC, requests DESC, ${group}`;
}

/**
 * Inserts the rows (call inside a transaction) and returns what the inserted ones spent; a row whose id is already
 * stored is skipped and spends nothing.
 */
export async function insertUsage(client: pg.ClientBase, records: readonly UsageRecord[]): Promise<SpentUsage[]> {
  const values = fields.map((field) => records.map((record) => bind[field].value(record[field])));
  values.push(records.map((record) => usdToNanos(real(record.cost))));
  const { rows } = await client.query<SpentUsage>(insertStatement, values);
  return rows;
}

export async function getUsage(pool: pg.Pool, id: string): Promise<UsageRecord | undefined> {
  const { rows } = await pool.query<UsageRecord>(`SELECT ${columns} FROM usage_log WHERE id = $1`, [id]);
  return rows[0] && toUsageRecord(rows[0]);
}

/** Newest first. */
export async function listUsage(pool: pg.Pool, query: UsageQuery = {}): Promise<UsageRecord[]> {
  const sinceMs = query.sinceMs ?? Number.MIN_SAFE_INTEGER;
  const limit = query.limit === undefined ? null : Math.max(0, Math.floor(query.limit));
  const { rows } = await pool.query<UsageRecord>(
    `SELECT ${columns} FROM usage_log WHERE created_at >= $1 ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT $2`,
    [sinceMs, limit],
  );
  return rows.map(toUsageRecord);
}

/** Usage grouped by day (UTC), model, app or key; costs in whole nano-dollars. */
export async function usageSummary(pool: pg.Pool, query: UsageSummaryQuery): Promise<UsageSummaryGroup[]> {
  const expression = groupExpressions[query.by];
  const { rows } = await pool.query<Omit<UsageSummaryGroup, 'group'> & { grp: string }>(
    `SELECT ${expression} AS grp, count(*) AS requests,
       count(*) FILTER (WHERE status >= 400 OR finish_reason = 'error')::bigint AS errors,
       count(*) FILTER (WHERE finish_reason = 'cancelled')::bigint AS cancelled,
       sum(prompt_tokens)::bigint AS "promptTokens", sum(completion_tokens)::bigint AS "completionTokens",
       sum(cached_tokens)::bigint AS "cachedTokens", sum(reasoning_tokens)::bigint AS "reasoningTokens",
       sum(cost_nanos)::bigint AS "costNanos", count(*) FILTER (WHERE unpriced)::bigint AS "unpricedRequests"
     FROM usage_log WHERE created_at >= $1 AND created_at < $2
     GROUP BY grp ORDER BY ${summaryOrder(query.by)}`,
    [query.sinceMs ?? Number.MIN_SAFE_INTEGER, query.untilMs ?? Number.MAX_SAFE_INTEGER],
  );
  return rows.map(({ grp, ...totals }) => ({ group: grp, ...totals }));
}

/** As the SQLite engine answers a row: `estimated` only when true. */
function toUsageRecord({ estimated, ...columns }: UsageRecord): UsageRecord {
  return { ...columns, ...(estimated ? { estimated: true } : {}) };
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
