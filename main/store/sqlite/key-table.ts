// SQL for the api_keys table. Times are Unix milliseconds.

import type { Database, Statement } from 'better-sqlite3';
import type { KeyRow, NewKeyRow } from '../contract/keys.js';

interface KeyColumns {
  id: string;
  name: string;
  label: string;
  secret_hash: Buffer;
  created_at: number;
  last_used_at: number | null;
}

const columns = 'id, name, label, secret_hash, created_at, last_used_at';

export class KeyTable {
  private readonly insertStatement: Statement<[NewKeyRow]>;
  private readonly getStatement: Statement<[string], KeyColumns>;
  private readonly listStatement: Statement<[], KeyColumns>;
  private readonly deleteStatement: Statement<[string]>;
  private readonly keepNameStatement: Statement<[{ id: string; deletedAt: number }]>;
  private readonly deletedNamesStatement: Statement<[], { id: string; name: string }>;
  private readonly deleteKeepingName: (id: string, deletedAt: number) => boolean;
  private readonly renameStatement: Statement<[{ id: string; name: string }]>;
  private readonly touchStatement: Statement<[{ id: string; lastUsedAt: number }]>;
  private readonly touchAll: (lastUsed: ReadonlyMap<string, number>) => void;

  constructor(db: Database) {
    this.insertStatement = db.prepare(
      'INSERT INTO api_keys (id, name, label, secret_hash, created_at) VALUES (@id, @name, @label, @secretHash, @createdAt)',
    );
    this.getStatement = db.prepare(`SELECT ${columns} FROM api_keys WHERE id = ?`);
    this.listStatement = db.prepare(`SELECT ${columns} FROM api_keys ORDER BY created_at, rowid`);
    this.deleteStatement = db.prepare('DELETE FROM api_keys WHERE id = ?');
    this.keepNameStatement = db.prepare(
      `INSERT OR REPLACE INTO deleted_api_keys (id, name, deleted_at)
       SELECT id, name, @deletedAt FROM api_keys WHERE id = @id`,
    );
    this.deletedNamesStatement = db.prepare('SELECT id, name FROM deleted_api_keys');
    this.deleteKeepingName = db.transaction((id: string, deletedAt: number) => {
      this.keepNameStatement.run({ id, deletedAt });
      return this.deleteStatement.run(id).changes > 0;
    });
    this.renameStatement = db.prepare('UPDATE api_keys SET name = @name WHERE id = @id');
    // Flushes from two processes may arrive out of order; last_used_at must never move back.
    this.touchStatement = db.prepare(
      `UPDATE api_keys SET last_used_at = @lastUsedAt
       WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @lastUsedAt)`,
    );
    const touchAll = db.transaction((lastUsed: ReadonlyMap<string, number>) => {
      for (const [id, lastUsedAt] of lastUsed) this.touchStatement.run({ id, lastUsedAt });
    });
    this.touchAll = (lastUsed) => touchAll.immediate(lastUsed);
  }

  insert(row: NewKeyRow): void {
    this.insertStatement.run(row);
  }

  get(id: string): KeyRow | undefined {
    const columns = this.getStatement.get(id);
    return columns && toKeyRow(columns);
  }

  list(): KeyRow[] {
    return this.listStatement.all().map(toKeyRow);
  }

  /** Keeps the key's name (deletedNames) for the usage it leaves behind. */
  delete(id: string, deletedAt = Date.now()): boolean {
    return this.deleteKeepingName(id, deletedAt);
  }

  /** The names of deleted keys, by id. */
  deletedNames(): Map<string, string> {
    return new Map(this.deletedNamesStatement.all().map((row) => [row.id, row.name]));
  }

  /** False when no key has this id. */
  rename(id: string, name: string): boolean {
    return this.renameStatement.run({ id, name }).changes > 0;
  }

  touch(lastUsed: ReadonlyMap<string, number>): void {
    if (lastUsed.size > 0) this.touchAll(lastUsed);
  }
}

function toKeyRow(columns: KeyColumns): KeyRow {
  return {
    id: columns.id,
    name: columns.name,
    label: columns.label,
    secretHash: columns.secret_hash,
    createdAt: columns.created_at,
    lastUsedAt: columns.last_used_at,
  };
}
