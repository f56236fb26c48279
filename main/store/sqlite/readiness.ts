// Whether the database can serve, for the gateway's /readyz: the file opens and answers a query, and its schema is
// the one this build migrates to. A probe opens its own read-only connection each time, so it tests the file as a
// new process would find it, never waits behind the store's writes (WAL readers do not block), and leaves the
// store's connection and its change tracking alone. The answer is fixed words only: an error's text can carry
// paths (or, on a server database, its address), and readiness answers anyone who can reach the port.

import path from 'node:path';
import Database from 'better-sqlite3';
import { migrationState, type DatabaseReadiness } from '../contract/readiness.js';
import { latestVersion } from '../contract/schema-version.js';
import { databaseFileName } from './database-file.js';
import { schemaVersion } from './migrate.js';
import { migrations } from './migrations.js';

/** How long a probe waits for a lock before calling the database unreachable. */
const probeBusyTimeoutMs = 1_000;

export function checkDatabaseReadiness(dataDir: string): DatabaseReadiness {
  let db: Database.Database | undefined;
  let version: number;
  try {
    db = new Database(path.join(dataDir, databaseFileName), {
      readonly: true,
      fileMustExist: true,
      timeout: probeBusyTimeoutMs,
    });
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    version = schemaVersion(db);
  } catch {
    return { ready: false, checks: { database: 'unreachable', migrations: 'unknown' } };
  } finally {
    db?.close();
  }
  const latest = latestVersion(migrations);
  const state = migrationState(version, latest);
  return { ready: state === 'current', checks: { database: 'reachable', migrations: state } };
}
