// PostgreSQL stores for tests: one throwaway cluster per test file (test/support/postgres.ts), an empty database per
// test, and every store opened in a test closed after it, so that a failed assertion leaves no connection behind.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openPostgresStore, type PostgresStore, type PostgresStoreOptions } from '../../main/store/postgres/index.js';
import { openStore, type Store } from '../../main/store/index.js';
import { startPostgres, withPostgresClient, type TestPostgres } from './postgres.js';
import { useHarness } from './use-harness.js';

export interface PostgresStores {
  /** The file's cluster (started before its first test). */
  cluster(): TestPostgres;
  /**
   * A new empty database's URL. `linguistic`: its text compares as people read it (ICU, en-US: `a < B < b`), as a
   * production database's usually does, unlike the test cluster's byte order.
   */
  database(options?: { linguistic?: boolean }): Promise<string>;
  /** Opens a store on `url`, closed after the test. */
  open(url: string, options?: PostgresStoreOptions): Promise<PostgresStore>;
}

/** One cluster for the current file or block: started before its first test, stopped after its last. */
export function useTestPostgres(): () => TestPostgres {
  const started = useHarness(async () => {
    const cluster = await startPostgres();
    return { cluster, close: () => cluster.stop() };
  });
  return () => started().cluster;
}

/** Registers the hooks in the current file or block. */
export function usePostgresStores(): PostgresStores {
  const cluster = useTestPostgres();
  const opened: PostgresStore[] = [];
  let linguistic = 0;
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  return {
    cluster,
    async database(options) {
      if (!options?.linguistic) return cluster().createDatabase();
      const name = `linguistic_${process.pid}_${++linguistic}`;
      await withPostgresClient(cluster().url, async (admin) => {
        await admin.query(
          `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'`,
        );
      });
      const url = new URL(cluster().url);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async open(url, options) {
      const store = await openPostgresStore(url, options);
      opened.push(store);
      return store;
    },
  };
}

export interface StoreEngine {
  name: 'sqlite' | 'postgres';
  /** A new empty store of this engine, closed (and its files removed) after the test. */
  open(): Promise<Store>;
  /** Two stores on the same new data: two processes on one folder, or two instances on one database. */
  openTwo(): Promise<[Store, Store]>;
}

/**
 * Both engines, for a test that must hold on each alike; registers the hooks in the current file or block.
 * `linguistic`: PostgreSQL's databases compare text as people read it (PostgresStores.database).
 */
export function useStoreEngines(folderPrefix: string, options: { linguistic?: boolean } = {}): StoreEngine[] {
  const postgres = usePostgresStores();
  const folders: string[] = [];
  const sqliteStores: Store[] = [];
  afterEach(async () => {
    await Promise.all(sqliteStores.splice(0).map((store) => store.close()));
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });
  const sqliteFolder = () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), folderPrefix));
    folders.push(folder);
    return folder;
  };
  const openSqlite = (folder: string) => {
    const store = openStore(folder);
    sqliteStores.push(store);
    return store;
  };
  return [
    {
      name: 'sqlite',
      open: async () => openSqlite(sqliteFolder()),
      openTwo: async () => {
        const folder = sqliteFolder();
        return [openSqlite(folder), openSqlite(folder)];
      },
    },
    {
      name: 'postgres',
      open: async () => postgres.open(await postgres.database(options)),
      openTwo: async () => {
        const url = await postgres.database(options);
        return [await postgres.open(url), await postgres.open(url)];
      },
    },
  ];
}
