// SQL for usage_log in PostgreSQL's dialect, answering exactly what the SQLite engine's UsageTable answers for the
// same rows (../sqlite/usage-table.ts): rows bound and read through the contract's mappers, the same orders (text
// compared byte by byte, as SQLite does, whatever the database's collation), the same summaries.

import type pg from 'pg';
import type { UsageGrouping, UsageRecord } from '../../../shared/api/index.js';
import type { SpentUsage } from '../contract/spend.js';
import { toUsageBindings, toUsageRecord, usageFields } from '../contract/usage.js';
import type { UsageColumns, UsageQuery, UsageSummaryGroup, UsageSummaryQuery } from '../contract/usage.js';

// Each column's type here. Flags travel as SQLite's 0 and 1 (the shared bindings and mapper speak them) and are
// booleans in the table.
const columnTypes: { [Field in keyof UsageColumns]: 'text' | 'bigint' | 'double precision' | 'flag' } = {
  id: 'text',
  created_at: 'bigint',
  key_id: 'text',
  app_title: 'text',
  app_referer: 'text',
  model: 'text',
  provider: 'text',
  streamed: 'flag',
  status: 'bigint',
  finish_reason: 'text',
  prompt_tokens: 'bigint',
  completion_tokens: 'bigint',
  cached_tokens: 'bigint',
  reasoning_tokens: 'bigint',
  cost: 'double precision',
  latency_ms: 'bigint',
  ttft_ms: 'bigint',
  error: 'text',
  unpriced: 'flag',
  estimated: 'flag',
  dropped_tools: 'text',
  cache: 'text',
  saved_cost: 'double precision',
};

const isFlag = (field: keyof UsageColumns) => columnTypes[field] === 'flag';
const arrayType = (field: keyof UsageColumns) => (isFlag(field) ? 'int' : columnTypes[field]);

/** The columns as the SQLite engine reads them, so that one mapper (toUsageRecord) serves both. */
const columns = usageFields.map((field) => (isFlag(field) ? `${field}::int AS ${field}` : field)).join(', ');

// Lenient in, as on SQLite (toUsageBindings): only truly bad rows (a missing id or model) are left for the NOT NULL
// constraints to reject, and then the whole batch fails, as on SQLite.
const insertStatement = `
  INSERT INTO usage_log (${usageFields.join(', ')}, cost_nanos)
  SELECT ${usageFields.map((field) => (isFlag(field) ? `${field} <> 0` : field)).join(', ')}, cost_nanos
  FROM unnest(${usageFields.map((field, index) => `$${index + 1}::${arrayType(field)}[]`).join(', ')},
              $${usageFields.length + 1}::bigint[]) AS r (${usageFields.join(', ')}, cost_nanos)
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
  const bindings = records.map(toUsageBindings);
  const values: unknown[] = usageFields.map((field) => bindings.map((row) => row[field]));
  values.push(bindings.map((row) => row.cost_nanos));
  const { rows } = await client.query<SpentUsage>(insertStatement, values);
  return rows;
}

/** The key's tokens by time since `sinceMs`, oldest first (the index on key_id, created_at serves it). */
export async function recentKeyTokens(
  pool: pg.Pool,
  keyId: string,
  sinceMs: number,
): Promise<{ id: string; at: number; tokens: number }[]> {
  const { rows } = await pool.query<{ id: string; at: number; tokens: number }>({
    name: 'switchyard-recent-key-tokens',
    text: `SELECT id, created_at AS at, prompt_tokens + completion_tokens AS tokens FROM usage_log
           WHERE key_id = $1 AND created_at > $2 AND prompt_tokens + completion_tokens > 0
             AND cache IS DISTINCT FROM 'hit' ORDER BY created_at`,
    values: [keyId, sinceMs],
  });
  return rows;
}

export async function getUsage(pool: pg.Pool, id: string): Promise<UsageRecord | undefined> {
  const { rows } = await pool.query<UsageColumns>(`SELECT ${columns} FROM usage_log WHERE id = $1`, [id]);
  return rows[0] && toUsageRecord(rows[0]);
}

/** Newest first. */
export async function listUsage(pool: pg.Pool, query: UsageQuery = {}): Promise<UsageRecord[]> {
  const sinceMs = query.sinceMs ?? Number.MIN_SAFE_INTEGER;
  const limit = query.limit === undefined ? null : Math.max(0, Math.floor(query.limit));
  const { rows } = await pool.query<UsageColumns>(
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
