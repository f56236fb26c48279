import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseFileName, openStore, StoreVersionError, type Store } from '../index.js';
import { migrate, schemaVersion } from './migrate.js';
import { latestVersion } from '../contract/schema-version.js';
import { migrations, type Migration } from './migrations.js';

let dataDir: string;
const opened: { close(): void }[] = [];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-'));
});

afterEach(() => {
  for (const connection of opened.splice(0)) connection.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function open(): Store {
  const store = openStore(dataDir);
  opened.push(store);
  return store;
}

function rawConnection(file = path.join(dataDir, databaseFileName)): Database.Database {
  const db = new Database(file);
  opened.push(db);
  return db;
}

function columnNames(db: Database.Database, table: string): string[] {
  return (db.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name);
}

describe('openStore', () => {
  it('creates the data directory with mode 0700 and a database at the newest schema version', () => {
    const nested = path.join(dataDir, 'a', 'b');
    opened.push(openStore(nested));
    if (process.platform !== 'win32') expect(fs.statSync(nested).mode & 0o777).toBe(0o700);
    const db = rawConnection(path.join(nested, databaseFileName));
    expect(schemaVersion(db)).toBe(latestVersion(migrations));
    const versions = migrations.map((migration) => migration.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('creates the tables of migrations 1 and 2, with one usage_log column per UsageRecord field + cost_nanos', () => {
    open();
    const db = rawConnection();
    expect(columnNames(db, 'api_keys')).toEqual(['id', 'name', 'label', 'secret_hash', 'created_at', 'last_used_at']);
    expect(columnNames(db, 'providers')).toEqual([
      'id',
      'kind',
      'base_url',
      'has_api_key',
      'created_at',
      'api_key_tail',
      'timeouts',
      'cooldown',
    ]);
    expect(columnNames(db, 'usage_log')).toEqual([
      'id',
      'created_at',
      'key_id',
      'app_title',
      'app_referer',
      'model',
      'provider',
      'streamed',
      'status',
      'finish_reason',
      'prompt_tokens',
      'completion_tokens',
      'cached_tokens',
      'reasoning_tokens',
      'cost',
      'latency_ms',
      'ttft_ms',
      'error',
      'cost_nanos',
      'unpriced',
      'estimated',
      'dropped_tools',
      'cache',
      'saved_cost',
    ]);
    const indexedColumns = (db.pragma('index_list(usage_log)') as { name: string }[])
      .filter((index) => !index.name.startsWith('sqlite_autoindex'))
      .map((index) => (db.pragma(`index_info(${index.name})`) as { name: string }[])[0]!.name);
    expect(indexedColumns.sort()).toEqual(['created_at', 'key_id', 'model']);
  });

  it('upgrades a database of schema 6 with a model_aliases table, keeping its rows', () => {
    const db = rawConnection();
    migrate(db, migrations.slice(0, 6));
    db.prepare(
      "INSERT INTO providers VALUES ('openai', 'openai', 'https://api.openai.com/v1', 0, 1, NULL, NULL)",
    ).run();
    const store = open();
    expect(schemaVersion(db)).toBe(latestVersion(migrations));
    expect(columnNames(db, 'model_aliases')).toEqual([
      'name',
      'target',
      'created_at',
      'targets',
      'strategy',
      'weights',
    ]);
    expect(store.listProviders().map((provider) => provider.id)).toEqual(['openai']);
    expect(store.listModelAliases()).toEqual([]);
  });

  it('upgrades a database of schema 7: keys keep their rules and get no MCP hub access; hub calls are recorded', async () => {
    const db = rawConnection();
    migrate(db, migrations.slice(0, 7));
    db.prepare(
      "INSERT INTO api_keys (id, name, label, secret_hash, created_at) VALUES ('k1', 'n', 'l', x'00', 1)",
    ).run();
    db.prepare("INSERT INTO key_rules (key_id, limit_reset, management, disabled) VALUES ('k1', 'never', 0, 0)").run();
    const store = open();
    expect(schemaVersion(db)).toBe(latestVersion(migrations));
    expect(store.getKeyRules('k1')).toMatchObject({ management: false, allowedMcp: null });
    await store.setKeyRules('k1', { ...store.getKeyRules('k1'), allowedMcp: ['fs', 'everything__echo'] });
    expect(store.getKeyRules('k1').allowedMcp).toEqual(['fs', 'everything__echo']);
    const call = { keyId: 'k1', keyName: 'n', client: 'c', server: 'fs', tool: 'read', error: null };
    await store.mcpCalls.insert({ ...call, createdAt: 1, durationMs: 12.4 });
    await store.mcpCalls.insert({ ...call, createdAt: 2, durationMs: 3, error: 'no such file' });
    expect(await store.mcpCalls.recent(10)).toEqual([
      { ...call, createdAt: 2, durationMs: 3, error: 'no such file' },
      { ...call, createdAt: 1, durationMs: 12 },
    ]);
  });

  it('upgrades a database of schema 8: a key deleted afterwards keeps its name, one deleted before has none', async () => {
    const db = rawConnection();
    migrate(db, migrations.slice(0, 8));
    const insert = db.prepare(
      "INSERT INTO api_keys (id, name, label, secret_hash, created_at) VALUES (?, 'reports', 'l', x'00', 1)",
    );
    insert.run('k1');
    insert.run('k2');
    db.prepare("DELETE FROM api_keys WHERE id = 'k1'").run();
    const store = open();
    expect(schemaVersion(db)).toBe(latestVersion(migrations));
    expect(await store.deleteKey('k2')).toBe(true);
    expect(await store.deletedKeyNames()).toEqual(new Map([['k2', 'reports']]));
    expect(await store.deleteKey('k2')).toBe(false);
  });

  it('puts the file in WAL mode', () => {
    open();
    expect(rawConnection().pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('reopens an existing database without migrating again and keeps its data', async () => {
    const first = open();
    await first.insertKey({ id: 'k1', name: 'n', label: 'l', secretHash: Buffer.alloc(32), createdAt: 1 });
    await first.close();
    // Re-running migration 1 would fail on CREATE TABLE, so a successful reopen proves it was skipped.
    const second = open();
    expect(second.getKey('k1')?.name).toBe('n');
    expect(schemaVersion(rawConnection())).toBe(latestVersion(migrations));
  });

  it('refuses a database from a newer schema with a clear error, and leaves it untouched', () => {
    const db = rawConnection();
    const newer = latestVersion(migrations) + 1;
    db.pragma(`user_version = ${newer}`);
    expect(() => open()).toThrow(StoreVersionError);
    expect(() => open()).toThrow(
      `database was created by a newer Switchyard (schema ${newer}); this build knows up to ${latestVersion(migrations)}`,
    );
    expect(schemaVersion(db)).toBe(newer);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get()).toBe(0);
  });
});

describe('migrate', () => {
  const createTable =
    (name: string): Migration['up'] =>
    (db) =>
      db.exec(`CREATE TABLE ${name} (x INTEGER)`);

  it('applies only the migrations newer than the database', () => {
    const db = rawConnection(path.join(dataDir, 'test.db'));
    migrate(db, [{ version: 1, name: 'one', up: createTable('one') }]);
    const applied: number[] = [];
    migrate(db, [
      { version: 1, name: 'one', up: () => applied.push(1) },
      { version: 2, name: 'two', up: (target) => (applied.push(2), createTable('two')(target)) },
    ]);
    expect(applied).toEqual([2]);
    expect(schemaVersion(db)).toBe(2);
  });

  it('rolls a failing migration back entirely and keeps the earlier ones', () => {
    const db = rawConnection(path.join(dataDir, 'test.db'));
    const failing: Migration = {
      version: 2,
      name: 'half done',
      up: (target) => {
        createTable('two')(target);
        throw new Error('boom');
      },
    };
    expect(() => migrate(db, [{ version: 1, name: 'one', up: createTable('one') }, failing])).toThrow('boom');
    expect(schemaVersion(db)).toBe(1);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(['one']);
  });

  it('rejects a migration list out of order, and takes one whose lower numbers another feature holds', () => {
    const db = rawConnection(path.join(dataDir, 'test.db'));
    const outOfOrder = [
      { version: 2, name: 'two', up: createTable('two') },
      { version: 2, name: 'two again', up: createTable('again') },
    ];
    expect(() => migrate(db, outOfOrder)).toThrow(/has version 2, expected more than 2/);
    expect(schemaVersion(db)).toBe(0);
    migrate(db, [
      { version: 1, name: 'one', up: createTable('one') },
      { version: 3, name: 'three', up: createTable('three') },
    ]);
    expect(schemaVersion(db)).toBe(3);
  });

  it('brings a database to the last version of a list with a number missing', () => {
    const db = rawConnection(path.join(dataDir, 'test.db'));
    migrate(db, [
      { version: 1, name: 'one', up: createTable('one') },
      { version: 3, name: 'three', up: createTable('three') },
    ]);
    expect(schemaVersion(db)).toBe(3);
  });
});
