// The PostgreSQL migrations on a real server (test/support/postgres.ts): they bring an empty database to this
// build's schema once however many instances start together, refuse a newer database, undo a failed migration
// whole, and give the same tables, columns, keys and indexes as the SQLite migrations.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestPostgres } from '../../../test/support/postgres-store.js';
import { latestVersion, StoreVersionError } from '../contract/schema-version.js';
import { migrations } from '../sqlite/migrations.js';
import { databaseFileName, openStore } from '../index.js';
import { migratePostgres, postgresSchemaVersion } from './migrate.js';
import { insertOrderColumn, postgresMigrations, teamOnlyTables } from './migrations.js';

const cluster = useTestPostgres();
const pools: pg.Pool[] = [];

async function freshPool(): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: await cluster().createDatabase(), max: 3 });
  pools.push(pool);
  return pool;
}

function samePool(pool: pg.Pool): pg.Pool {
  const another = new pg.Pool({ connectionString: pool.options.connectionString, max: 3 });
  pools.push(another);
  return another;
}

// Registered after the cluster's hooks, so it runs before its stop (after-hooks run in reverse order).
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

describe('migratePostgres', () => {
  it('has the SQLite migrations’ versions and names, in order', () => {
    expect(postgresMigrations.map(({ version, name }) => ({ version, name }))).toEqual(
      migrations.map(({ version, name }) => ({ version, name })),
    );
  });

  it('brings an empty database to the latest version, and then does nothing', async () => {
    const pool = await freshPool();
    expect(await postgresSchemaVersion(pool)).toBe(0);
    await migratePostgres(pool);
    expect(await postgresSchemaVersion(pool)).toBe(latestVersion(migrations));
    await migratePostgres(pool);
    const { rows } = await pool.query('SELECT version, name FROM schema_migrations ORDER BY version');
    expect(rows).toEqual(postgresMigrations.map(({ version, name }) => ({ version, name })));
    const account = await pool.query('SELECT id, limited, granted_nanos, used_nanos FROM credit_account');
    expect(account.rows).toEqual([{ id: '1', limited: false, granted_nanos: '0', used_nanos: '0' }]);
  });

  it('applies each migration once when instances start together', async () => {
    const first = await freshPool();
    const instances = [first, samePool(first), samePool(first), samePool(first)];
    await Promise.all(instances.map((pool) => migratePostgres(pool)));
    const { rows } = await first.query<{ version: number; count: string }>(
      'SELECT version, count(*) FROM schema_migrations GROUP BY version ORDER BY version',
    );
    expect(rows.map((row) => [row.version, Number(row.count)])).toEqual(migrations.map((m) => [m.version, 1]));
    const locks = await first.query("SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory'");
    expect(locks.rows[0].held).toBe(0);
  });

  it('refuses a database of a newer Switchyard', async () => {
    const pool = await freshPool();
    await migratePostgres(pool);
    await pool.query("INSERT INTO schema_migrations (version, name) VALUES ($1, 'from the future')", [
      latestVersion(migrations) + 1,
    ]);
    await expect(migratePostgres(pool)).rejects.toBeInstanceOf(StoreVersionError);
  });

  it('undoes a failed migration whole, says which one failed, and releases the lock', async () => {
    const pool = await freshPool();
    const broken = [
      ...postgresMigrations,
      {
        version: latestVersion(migrations) + 1,
        name: 'half a change',
        sql: 'CREATE TABLE half_done (id int); SELECT no_such_column FROM api_keys',
      },
    ];
    await expect(migratePostgres(pool, broken)).rejects.toThrow(
      `migration ${latestVersion(migrations) + 1} ("half a change") failed: column "no_such_column" does not exist`,
    );
    expect(await postgresSchemaVersion(pool)).toBe(latestVersion(migrations));
    const table = await pool.query("SELECT to_regclass('half_done') AS found");
    expect(table.rows[0].found).toBeNull();
    // Nobody holds the lock: the fixed list still migrates (a no-op) at once.
    await migratePostgres(pool);
  });
});

describe('the same schema on both engines', () => {
  interface Column {
    name: string;
    type: string;
    notNull: boolean;
  }
  interface Schema {
    tables: Record<string, { columns: Column[]; primaryKey: string[] }>;
    indexes: string[];
  }

  /** SQLite's declared types in PostgreSQL's words; the 0/1 INTEGER flags are booleans there. */
  const typeIn = (sqliteType: string, postgresType: string): boolean =>
    ({
      TEXT: ['text'],
      INTEGER: ['bigint', 'boolean'],
      REAL: ['double precision'],
      BLOB: ['bytea'],
    })[sqliteType]?.includes(postgresType) ?? false;

  async function sqliteSchema(): Promise<Schema> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-parity-'));
    try {
      await openStore(dataDir).close();
      const db = new Database(path.join(dataDir, databaseFileName), { readonly: true });
      const names = db
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all()
        .map((row) => row.name);
      const tables: Schema['tables'] = {};
      for (const name of names) {
        const info = db
          .prepare<[], { name: string; type: string; notnull: number; pk: number }>(`PRAGMA table_info(${name})`)
          .all();
        tables[name] = {
          // SQLite's INTEGER PRIMARY KEY may be NULL on insert (a row id is chosen); it is never NULL stored.
          columns: info.map((column) => ({
            name: column.name,
            type: column.type,
            notNull: column.notnull === 1 || column.pk > 0,
          })),
          primaryKey: info
            .filter((column) => column.pk > 0)
            .sort((a, b) => a.pk - b.pk)
            .map((column) => column.name),
        };
      }
      const indexes = db
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name",
        )
        .all()
        .map((row) => row.name);
      db.close();
      return { tables, indexes };
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  async function postgresSchema(pool: pg.Pool): Promise<Schema> {
    const columns = await pool.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
    }>(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name <> 'schema_migrations' ORDER BY table_name, ordinal_position`,
    );
    const keys = await pool.query<{ table_name: string; column_name: string }>(
      `SELECT k.table_name, k.column_name FROM information_schema.table_constraints c
       JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name)
       WHERE c.constraint_type = 'PRIMARY KEY' AND c.table_schema = 'public' AND c.table_name <> 'schema_migrations'
       ORDER BY k.table_name, k.ordinal_position`,
    );
    const indexes = await pool.query<{ indexname: string; tablename: string }>(
      `SELECT indexname, tablename FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey'
       ORDER BY indexname`,
    );
    // The team server's own tables have no SQLite counterpart (migrations.ts, version 10).
    const shared = (table: string) => !(teamOnlyTables as readonly string[]).includes(table);
    const tables: Schema['tables'] = {};
    const sharedColumn = (column: { table_name: string; column_name: string }) =>
      shared(column.table_name) && column.column_name !== insertOrderColumn;
    for (const row of columns.rows.filter(sharedColumn)) {
      const table = (tables[row.table_name] ??= { columns: [], primaryKey: [] });
      table.columns.push({ name: row.column_name, type: row.data_type, notNull: row.is_nullable === 'NO' });
    }
    for (const row of keys.rows) tables[row.table_name]?.primaryKey.push(row.column_name);
    return { tables, indexes: indexes.rows.filter((row) => shared(row.tablename)).map((row) => row.indexname) };
  }

  it('has the same tables, columns (in order, with matching types and nullability), keys and indexes', async () => {
    const pool = await freshPool();
    await migratePostgres(pool);
    const lite = await sqliteSchema();
    const server = await postgresSchema(pool);
    expect(Object.keys(server.tables).sort()).toEqual(Object.keys(lite.tables).sort());
    for (const [name, table] of Object.entries(lite.tables)) {
      const other = server.tables[name]!;
      expect(
        other.columns.map((column) => column.name),
        name,
      ).toEqual(table.columns.map((column) => column.name));
      expect(other.primaryKey, name).toEqual(table.primaryKey);
      table.columns.forEach((column, index) => {
        const counterpart = other.columns[index]!;
        const label = `${name}.${column.name}: ${column.type} vs ${counterpart.type}`;
        expect(typeIn(column.type, counterpart.type), label).toBe(true);
        expect(counterpart.notNull, label).toBe(column.notNull);
      });
    }
    expect(server.indexes).toEqual(lite.indexes);
  });
});
