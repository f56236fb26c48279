import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { latestVersion } from '../contract/schema-version.js';
import { migrations } from './migrations.js';
import { databaseFileName } from './database-file.js';
import { openStore } from './open-store.js';
import { checkDatabaseReadiness } from './readiness.js';
import type { SqliteStore as Store } from './store.js';

describe('checkDatabaseReadiness', () => {
  let dataDir: string;
  let store: Store | undefined;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-readiness-'));
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function setSchemaVersion(version: number): void {
    const db = new Database(path.join(dataDir, databaseFileName));
    db.pragma(`user_version = ${version}`);
    db.close();
  }

  it('is ready on a migrated database, while the store has it open', () => {
    store = openStore(dataDir);
    expect(checkDatabaseReadiness(dataDir)).toEqual({
      ready: true,
      checks: { database: 'reachable', migrations: 'current' },
    });
  });

  it('is not ready when the database is missing, and creates nothing', () => {
    expect(checkDatabaseReadiness(dataDir)).toEqual({
      ready: false,
      checks: { database: 'unreachable', migrations: 'unknown' },
    });
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('is not ready when the file is not a database', () => {
    fs.writeFileSync(path.join(dataDir, databaseFileName), 'not a database, just some text'.repeat(40));
    expect(checkDatabaseReadiness(dataDir).checks.database).toBe('unreachable');
  });

  it('is not ready while a migration is pending', () => {
    store = openStore(dataDir);
    setSchemaVersion(latestVersion(migrations) - 1);
    expect(checkDatabaseReadiness(dataDir)).toEqual({
      ready: false,
      checks: { database: 'reachable', migrations: 'pending' },
    });
  });

  it('is not ready on a database of a newer Switchyard', () => {
    store = openStore(dataDir);
    setSchemaVersion(latestVersion(migrations) + 1);
    expect(checkDatabaseReadiness(dataDir)).toEqual({
      ready: false,
      checks: { database: 'reachable', migrations: 'newer' },
    });
  });
});
