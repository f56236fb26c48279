// SQL for the providers table. The database keeps Unix milliseconds; ProviderInfo speaks ISO 8601.

import type { Database, Statement } from 'better-sqlite3';
import { providerKinds, type ProviderInfo, type ProviderKind, type ProviderTimeouts } from '../../shared/api/index.js';

interface ProviderColumns {
  id: string;
  kind: string;
  base_url: string;
  has_api_key: number;
  created_at: number;
  api_key_tail: string | null;
  timeouts: string | null;
}

const columns = 'id, kind, base_url, has_api_key, created_at, api_key_tail, timeouts';

export class ProviderTable {
  private readonly listStatement: Statement<[], ProviderColumns>;
  private readonly getStatement: Statement<[string], ProviderColumns>;
  private readonly upsertStatement: Statement<[ProviderColumns]>;
  private readonly removeStatement: Statement<[string]>;

  constructor(db: Database) {
    this.listStatement = db.prepare(`SELECT ${columns} FROM providers ORDER BY created_at, rowid`);
    this.getStatement = db.prepare(`SELECT ${columns} FROM providers WHERE id = ?`);
    // created_at is left alone on update: re-saving a provider does not make it new.
    this.upsertStatement = db.prepare(
      `INSERT INTO providers (${columns}) VALUES (@id, @kind, @base_url, @has_api_key, @created_at, @api_key_tail, @timeouts)
       ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, base_url = excluded.base_url,
         has_api_key = excluded.has_api_key, api_key_tail = excluded.api_key_tail, timeouts = excluded.timeouts`,
    );
    this.removeStatement = db.prepare('DELETE FROM providers WHERE id = ?');
  }

  list(): ProviderInfo[] {
    return this.listStatement.all().map(toProviderInfo);
  }

  get(id: string): ProviderInfo | undefined {
    const columns = this.getStatement.get(id);
    return columns && toProviderInfo(columns);
  }

  upsert(provider: ProviderInfo): void {
    this.upsertStatement.run(toProviderColumns(provider));
  }

  remove(id: string): boolean {
    return this.removeStatement.run(id).changes > 0;
  }
}

/** The row's columns (shared with postgres/provider-table.ts). */
export function toProviderColumns(provider: ProviderInfo): ProviderColumns {
  const createdAt = Date.parse(provider.created_at);
  if (Number.isNaN(createdAt)) {
    throw new Error(`provider "${provider.id}" has an invalid created_at: ${JSON.stringify(provider.created_at)}`);
  }
  return {
    id: provider.id,
    kind: provider.kind,
    base_url: provider.base_url,
    has_api_key: provider.has_api_key ? 1 : 0,
    created_at: createdAt,
    api_key_tail: provider.has_api_key ? (provider.api_key_tail ?? null) : null,
    timeouts: provider.timeouts && Object.keys(provider.timeouts).length > 0 ? JSON.stringify(provider.timeouts) : null,
  };
}

function toProviderInfo(columns: ProviderColumns): ProviderInfo {
  return {
    id: columns.id,
    kind: toProviderKind(columns.kind, columns.id),
    base_url: columns.base_url,
    has_api_key: columns.has_api_key !== 0,
    created_at: new Date(columns.created_at).toISOString(),
    ...(columns.api_key_tail === null ? {} : { api_key_tail: columns.api_key_tail }),
    ...(columns.timeouts === null ? {} : { timeouts: JSON.parse(columns.timeouts) as ProviderTimeouts }),
  };
}

function toProviderKind(kind: string, id: string): ProviderKind {
  if ((providerKinds as readonly string[]).includes(kind)) return kind as ProviderKind;
  throw new Error(`provider "${id}" has an unknown kind "${kind}" in the database`);
}
