// SQL for target_health: the targets cooled down or on trial, shared by every process on the file and read into
// the PostgreSQL engine's snapshot.

import type { Database, Statement } from 'better-sqlite3';
import type { TargetHealthRow } from '../contract/target-health.js';

const columns = 'model, provider, state, until, next_cooldown_ms, updated_at';

export class TargetHealthTable {
  private readonly listStatement: Statement<[], TargetHealthRow>;
  private readonly upsertStatement: Statement<[TargetHealthRow]>;
  private readonly removeStatement: Statement<[string]>;

  constructor(db: Database) {
    this.listStatement = db.prepare(`SELECT ${columns} FROM target_health ORDER BY model`);
    this.upsertStatement = db.prepare(
      `INSERT INTO target_health (${columns})
       VALUES (@model, @provider, @state, @until, @next_cooldown_ms, @updated_at)
       ON CONFLICT (model) DO UPDATE SET provider = excluded.provider, state = excluded.state, until = excluded.until,
         next_cooldown_ms = excluded.next_cooldown_ms, updated_at = excluded.updated_at`,
    );
    this.removeStatement = db.prepare('DELETE FROM target_health WHERE model = ?');
  }

  list(): TargetHealthRow[] {
    return this.listStatement.all();
  }

  set(row: TargetHealthRow): void {
    this.upsertStatement.run(row);
  }

  remove(model: string): boolean {
    return this.removeStatement.run(model).changes > 0;
  }
}
