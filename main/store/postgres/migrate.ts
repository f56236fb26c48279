// Brings a PostgreSQL database up to the newest schema this build knows (decision 017). Instances that start
// together take turns through a session advisory lock: the first applies what is missing, one migration per
// transaction (PostgreSQL's DDL is transactional, so a failed migration leaves nothing half done), and the others
// then find nothing left to do. The lock goes with the session, so an instance that dies holding it frees it.

import type pg from 'pg';
import { checkNotNewer, checkOrder, latestVersion } from '../contract/schema-version.js';
import { postgresMigrations, type PostgresMigration } from './migrations.js';

/** The advisory lock's key: any fixed number that nothing else on the database uses for a lock. */
export const migrationLockKey = 7_420_017;

const historyTable = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`;

/** The newest version applied, 0 for a database without Switchyard's tables. */
export async function postgresSchemaVersion(client: pg.ClientBase | pg.Pool): Promise<number> {
  // Two statements: a query naming a missing table fails when planned, whatever a CASE around it says.
  const history = await client.query<{ found: string | null }>("SELECT to_regclass('schema_migrations') AS found");
  if (history.rows[0]?.found == null) return 0;
  const { rows } = await client.query<{ version: number }>(
    'SELECT coalesce(max(version), 0) AS version FROM schema_migrations',
  );
  return rows[0]?.version ?? 0;
}

export async function migratePostgres(
  pool: pg.Pool,
  migrations: readonly PostgresMigration[] = postgresMigrations,
): Promise<void> {
  checkOrder(migrations);
  const latest = latestVersion(migrations);
  // Fast path without the lock: the common case is a database that is already current.
  if (checkNotNewer(await postgresSchemaVersion(pool), latest) === latest) return;

  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
    try {
      await client.query(historyTable);
      const current = checkNotNewer(await postgresSchemaVersion(client), latest);
      for (const migration of migrations.slice(current)) {
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
            migration.version,
            migration.name,
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${migration.version} ("${migration.name}") failed: ${(error as Error).message}`, {
            cause: error,
          });
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]);
    }
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    // A connection whose state is in doubt (a failed ROLLBACK or unlock) is closed, not returned to the pool.
    client.release(broken);
  }
}
