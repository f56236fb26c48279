// SQL for the usage_log table: one column per field of UsageRecord, under the same name.

import type { Database, Statement } from 'better-sqlite3';
import { usdToNanos, type UsageGrouping, type UsageRecord } from '../../shared/api/index.js';
import type { SpentUsage } from './spend-table.js';

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

/** A summary row as SQL gives it: the group under a name SQL does not reserve. */
type SummaryColumns = Omit<UsageSummaryGroup, 'group'> & { grp: string };

// Fixed SQL per grouping: the grouping is never interpolated from input.
const groupExpressions: Record<UsageGrouping, { expression: string; order: string }> = {
  day: { expression: "strftime('%Y-%m-%d', created_at / 1000, 'unixepoch')", order: 'grp' },
  model: { expression: 'model', order: 'costNanos DESC, requests DESC, grp' },
  app: { expression: "coalesce(app_title, app_referer, '')", order: 'costNanos DESC, requests DESC, grp' },
  key: { expression: 'key_id', order: 'costNanos DESC, requests DESC, grp' },
};

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

/** The columns of a UsageRecord in the table's order, as toUsageBindings writes them (postgres/usage-table.ts too). */
export const usageFields = Object.keys(toUsageBindings({} as UsageRecord)).filter(
  (field) => field !== 'cost_nanos',
) as (keyof UsageColumns)[];
const fields = usageFields;
const columns = fields.join(', ');

export class UsageTable {
  private readonly insertStatement: Statement<unknown[]>;
  private readonly getStatement: Statement<[string], UsageColumns>;
  private readonly listStatement: Statement<[{ sinceMs: number; limit: number }], UsageColumns>;
  private readonly summaryStatements: Record<
    UsageGrouping,
    Statement<[{ sinceMs: number; untilMs: number }], SummaryColumns>
  >;

  constructor(db: Database) {
    // A row whose id is already stored is skipped. ON CONFLICT (id) rather than INSERT OR IGNORE: OR IGNORE
    // would also skip, silently, a row that breaks a NOT NULL or type constraint.
    // Parameters by position, in the order insertEach passes them: binding 21 names costs more per row.
    this.insertStatement = db.prepare(
      `INSERT INTO usage_log (${columns}, cost_nanos) VALUES (${fields.map(() => '?').join(', ')}, ?)
       ON CONFLICT (id) DO NOTHING`,
    );
    this.getStatement = db.prepare(`SELECT ${columns} FROM usage_log WHERE id = ?`);
    this.listStatement = db.prepare(
      `SELECT ${columns} FROM usage_log WHERE created_at >= @sinceMs ORDER BY created_at DESC, id DESC LIMIT @limit`,
    );
    const summary = (by: UsageGrouping) =>
      db.prepare<[{ sinceMs: number; untilMs: number }], SummaryColumns>(
        `SELECT ${groupExpressions[by].expression} AS grp, count(*) AS requests,
           sum(iif(status >= 400 OR finish_reason IS 'error', 1, 0)) AS errors,
           sum(iif(finish_reason IS 'cancelled', 1, 0)) AS cancelled,
           sum(prompt_tokens) AS promptTokens, sum(completion_tokens) AS completionTokens,
           sum(cached_tokens) AS cachedTokens, sum(reasoning_tokens) AS reasoningTokens,
           sum(cost_nanos) AS costNanos, sum(unpriced) AS unpricedRequests
         FROM usage_log WHERE created_at >= @sinceMs AND created_at < @untilMs
         GROUP BY grp ORDER BY ${groupExpressions[by].order}`,
      );
    this.summaryStatements = { day: summary('day'), model: summary('model'), app: summary('app'), key: summary('key') };
  }

  /**
   * Inserts the rows (call inside a transaction) and returns what the inserted ones spent; a row whose id is
   * already stored is skipped and spends nothing.
   */
  insertEach(records: readonly UsageRecord[]): SpentUsage[] {
    const spent: SpentUsage[] = [];
    for (const record of records) {
      const bindings = toUsageBindings(record);
      const values = fields.map((field) => bindings[field]);
      if (this.insertStatement.run(...values, bindings.cost_nanos).changes === 0) continue;
      spent.push({ keyId: bindings.key_id!, createdAt: bindings.created_at!, costNanos: bindings.cost_nanos });
    }
    return spent;
  }

  summary(query: UsageSummaryQuery): UsageSummaryGroup[] {
    const sinceMs = query.sinceMs ?? Number.MIN_SAFE_INTEGER;
    const untilMs = query.untilMs ?? Number.MAX_SAFE_INTEGER;
    return this.summaryStatements[query.by]
      .all({ sinceMs, untilMs })
      .map(({ grp, ...totals }) => ({ group: grp, ...totals }));
  }

  get(id: string): UsageRecord | undefined {
    const columns = this.getStatement.get(id);
    return columns && toUsageRecord(columns);
  }

  list(query: UsageQuery = {}): UsageRecord[] {
    const sinceMs = query.sinceMs ?? Number.MIN_SAFE_INTEGER;
    // SQLite reads a negative LIMIT as "no limit".
    const limit = query.limit === undefined ? -1 : Math.max(0, Math.floor(query.limit));
    return this.listStatement.all({ sinceMs, limit }).map(toUsageRecord);
  }
}

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
    cost_nanos: usdToNanos(real(record.cost)),
  };
}

export function toUsageRecord({ estimated, dropped_tools, ...columns }: UsageColumns): UsageRecord {
  return {
    ...columns,
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
