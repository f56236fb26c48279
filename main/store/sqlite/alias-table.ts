// SQL for model_aliases: names a caller may send as `model` (`claude-sonnet-4-5`) and the `<provider>/<model>` each
// stands for. The database keeps Unix milliseconds; ModelAliasInfo speaks ISO 8601.

import type { Database, Statement } from 'better-sqlite3';
import type { ModelAliasInfo } from '../../../shared/api/index.js';

interface AliasColumns {
  name: string;
  target: string;
  created_at: number;
}

export class AliasTable {
  private readonly listStatement: Statement<[], AliasColumns>;
  private readonly getStatement: Statement<[string], AliasColumns>;
  private readonly upsertStatement: Statement<[AliasColumns]>;
  private readonly removeStatement: Statement<[string]>;

  constructor(db: Database) {
    this.listStatement = db.prepare('SELECT name, target, created_at FROM model_aliases ORDER BY name');
    this.getStatement = db.prepare('SELECT name, target, created_at FROM model_aliases WHERE name = ?');
    // Pointing an alias elsewhere keeps its created_at: it is the same alias.
    this.upsertStatement = db.prepare(
      `INSERT INTO model_aliases (name, target, created_at) VALUES (@name, @target, @created_at)
       ON CONFLICT (name) DO UPDATE SET target = excluded.target`,
    );
    this.removeStatement = db.prepare('DELETE FROM model_aliases WHERE name = ?');
  }

  list(): ModelAliasInfo[] {
    return this.listStatement.all().map(toAliasInfo);
  }

  get(name: string): ModelAliasInfo | undefined {
    const columns = this.getStatement.get(name);
    return columns && toAliasInfo(columns);
  }

  set(name: string, target: string, createdAt: number): void {
    this.upsertStatement.run({ name, target, created_at: createdAt });
  }

  remove(name: string): boolean {
    return this.removeStatement.run(name).changes > 0;
  }
}

function toAliasInfo(columns: AliasColumns): ModelAliasInfo {
  return { name: columns.name, target: columns.target, created_at: new Date(columns.created_at).toISOString() };
}
