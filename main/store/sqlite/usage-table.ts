// SQL for the usage_log table: one column per field of UsageRecord, under the same name.

import type { Database, Statement } from 'better-sqlite3';
import type { UsageGrouping, UsageRecord } from '../../../shared/api/index.js';
import type { SpentUsage } from '../contract/spend.js';
import { toUsageBindings, toUsageRecord, usageFields } from '../contract/usage.js';
import type { UsageColumns, UsageQuery, UsageSummaryGroup, UsageSummaryQuery } from '../contract/usage.js';

/** A summary row as SQL gives it: the group under a name SQL does not reserve. */
type SummaryColumns = Omit<UsageSummaryGroup, 'group'> & { grp: string };

// Fixed SQL per grouping: the grouping is never interpolated from input.
const groupExpressions: Record<UsageGrouping, { expression: string; order: string }> = {
  day: { expression: "strftime('%Y-%m-%d', created_at / 1000, 'unixepoch')", order: 'grp' },
  model: { expression: 'model', order: 'costNanos DESC, requests DESC, grp' },
  app: { expression: "coalesce(app_title, app_referer, '')", order: 'costNanos DESC, requests DESC, grp' },
  key: { expression: 'key_id', order: 'costNanos DESC, requests DESC, grp' },
};

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
