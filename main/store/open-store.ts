// Opens (and creates or upgrades) the database file in the app's data directory.

import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate.js';
import { Store } from './store.js';

export const databaseFileName = 'switchyard.db';

const busyTimeoutMs = 5000;

export function openStore(dataDir: string): Store {
  // 0700: the database holds key hashes and request history; only this user should read it.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(path.join(dataDir, databaseFileName), { timeout: busyTimeoutMs });
  try {
    // busy_timeout first, so that everything after it waits for another process instead of failing.
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    // WAL lets readers and one writer work at once across processes; NORMAL is durable enough with WAL
    // (a power cut may lose the last commits, never corrupt the file).
    const journalMode = db.pragma('journal_mode = WAL', { simple: true });
    if (journalMode !== 'wal') throw new Error(`could not switch the database to WAL mode (it is in ${journalMode})`);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return new Store(db);
  } catch (error) {
    db.close();
    throw error;
  }
}
