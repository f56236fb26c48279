// SQL for model_aliases: names a caller may send as `model` (`claude-sonnet-4-5`) and the `<provider>/<model>`
// targets each stands for (alias-columns.ts). The database keeps Unix milliseconds; ModelAliasInfo speaks ISO 8601.

import type { Database, Statement } from 'better-sqlite3';
import type { AliasGroup, ModelAliasInfo } from '../../../shared/api/index.js';
import { aliasColumns, toAliasInfo, type AliasColumns } from '../contract/alias-columns.js';

const columnList = 'name, target, targets, strategy, weights, created_at';

export class AliasTable {
  private readonly listStatement: Statement<[], AliasColumns>;
  private readonly getStatement: Statement<[string], AliasColumns>;
  private readonly upsertStatement: Statement<[AliasColumns]>;
  private readonly removeStatement: Statement<[string]>;

  constructor(db: Database) {
    this.listStatement = db.prepare(`SELECT ${columnList} FROM model_aliases ORDER BY name`);
    this.getStatement = db.prepare(`SELECT ${columnList} FROM model_aliases WHERE name = ?`);
    // Pointing an alias elsewhere keeps its created_at: it is the same alias.
    this.upsertStatement = db.prepare(
      `INSERT INTO model_aliases (${columnList})
       VALUES (@name, @target, @targets, @strategy, @weights, @created_at)
       ON CONFLICT (name) DO UPDATE SET target = excluded.target, targets = excluded.targets,
         strategy = excluded.strategy, weights = excluded.weights`,
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

  set(name: string, group: AliasGroup, createdAt: number): void {
    this.upsertStatement.run(aliasColumns(name, group, createdAt));
  }

  remove(name: string): boolean {
    return this.removeStatement.run(name).changes > 0;
  }
}
