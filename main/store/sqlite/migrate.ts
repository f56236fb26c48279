// Brings a database up to the newest schema this build knows, one migration per transaction.

import type { Database } from 'better-sqlite3';
import { checkNotNewer, checkOrder, latestVersion } from '../contract/schema-version.js';
import { migrations as knownMigrations, type Migration } from './migrations.js';

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Database, migrations: readonly Migration[] = knownMigrations): void {
  checkOrder(migrations);
  const latest = latestVersion(migrations);
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
