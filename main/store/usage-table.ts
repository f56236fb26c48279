// SQL for the usage_log table: one column per field of UsageRecord, under the same name.

import type { Database, Statement } from 'better-sqlite3';
import type { UsageRecord } from '../../shared/api/index.js';

export interface UsageQuery {
  /** Only rows whose created_at is at or after this (Unix milliseconds). */
  sinceMs?: number;
  /** At most this many rows; all of them when omitted. */
  limit?: number;
}

type UsageColumns = { [Field in keyof UsageRecord]: UsageRecord[Field] extends boolean ? number : UsageRecord[Field] };
/** What gets bound on insert: any value may be null, and NOT NULL columns reject the row then. */
type UsageBindings = { [Field in keyof UsageColumns]: UsageColumns[Field] | null };

const fields = [
  'id',
  'created_at',
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
  'cost',
  'latency_ms',
  'ttft_ms',
  'error',
] as const satisfies readonly (keyof UsageRecord)[];

const columns = fields.join(', ');

export class UsageTable {
  private readonly insertStatement: Statement<[UsageBindings]>;
  private readonly getStatement: Statement<[string], UsageColumns>;
  private readonly listStatement: Statement<[{ sinceMs: number; limit: number }], UsageColumns>;
  private readonly insertAll: (records: readonly UsageRecord[]) => void;

  constructor(db: Database) {
    // A row whose id is already stored is skipped. ON CONFLICT (id) rather than INSERT OR IGNORE: OR IGNORE
    // would also skip, silently, a row that breaks a NOT NULL or type constraint.
    this.insertStatement = db.prepare(
      `INSERT INTO usage_log (${columns}) VALUES (${fields.map((field) => `@${field}`).join(', ')})
       ON CONFLICT (id) DO NOTHING`,
    );
    this.getStatement = db.prepare(`SELECT ${columns} FROM usage_log WHERE id = ?`);
    this.listStatement = db.prepare(
      `SELECT ${columns} FROM usage_log WHERE created_at >= @sinceMs ORDER BY created_at DESC, id DESC LIMIT @limit`,
    );
    const insertAll = db.transaction((records: readonly UsageRecord[]) => {
      for (const record of records) this.insertStatement.run(toUsageBindings(record));
    });
    this.insertAll = (records) => insertAll.immediate(records);
  }

  insert(records: readonly UsageRecord[]): void {
    if (records.length > 0) this.insertAll(records);
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
function toUsageBindings(record: UsageRecord): UsageBindings {
  return {
    id: text(record.id),
    created_at: integer(record.created_at),
    key_id: text(record.key_id),
    app_title: text(record.app_title),
    app_referer: text(record.app_referer),
    model: text(record.model),
    provider: text(record.provider),
    streamed: record.streamed ? 1 : 0,
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
  };
}

function toUsageRecord(columns: UsageColumns): UsageRecord {
  return { ...columns, streamed: columns.streamed !== 0 };
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
