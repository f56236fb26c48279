// Brings a database up to the newest schema this build knows, one migration per transaction.

import type { Database } from 'better-sqlite3';
import { migrations as knownMigrations, type Migration } from './migrations.js';

/** The database was written by a newer Switchyard; opening it here could corrupt its data. */
export class StoreVersionError extends Error {
  readonly found: number;
  readonly known: number;

  constructor(found: number, known: number) {
    super(`database was created by a newer Switchyard (schema ${found}); this build knows up to ${known}`);
    this.name = 'StoreVersionError';
    this.found = found;
    this.known = known;
  }
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Database, migrations: readonly Migration[] = knownMigrations): void {
  checkOrder(migrations);
  const latest = migrations.length;
  // Fast path without a write lock: the common case is a database that is already current.
  if (checkNotNewer(schemaVersion(db), latest) === latest) return;

  for (const migration of migrations) {
    // IMMEDIATE takes the write lock before reading user_version, so when two processes start at once the
    // second one waits, then sees the first one's work and skips it instead of applying it twice.
    db.transaction(() => {
      const current = checkNotNewer(schemaVersion(db), latest);
      if (current >= migration.version) return;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}

/** Throws StoreVersionError for a database of a newer build; else answers `current`. */
export function checkNotNewer(current: number, latest: number): number {
  if (current > latest) throw new StoreVersionError(current, latest);
  return current;
}

/** Versions must be 1, 2, 3… in order: a version is a schema on every engine. */
export function checkOrder(migrations: readonly Pick<Migration, 'version' | 'name'>[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`migration "${migration.name}" has version ${migration.version}, expected ${index + 1}`);
    }
  });
}
