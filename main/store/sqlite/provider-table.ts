// SQL for the providers table. The database keeps Unix milliseconds; ProviderInfo speaks ISO 8601.

import type { Database, Statement } from 'better-sqlite3';
import type { ProviderInfo } from '../../../shared/api/index.js';
import { toProviderColumns, toProviderInfo, type ProviderColumns } from '../contract/providers.js';

const columns = 'id, kind, base_url, has_api_key, created_at, api_key_tail, timeouts, cooldown';

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
      `INSERT INTO providers (${columns}) VALUES (@id, @kind, @base_url, @has_api_key, @created_at, @api_key_tail, @timeouts, @cooldown)
       ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, base_url = excluded.base_url,
         has_api_key = excluded.has_api_key, api_key_tail = excluded.api_key_tail, timeouts = excluded.timeouts,
         cooldown = excluded.cooldown`,
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
