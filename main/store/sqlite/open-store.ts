// Opens (and creates or upgrades) the database file in the app's data directory.

import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createPrivateFileSync, privateDirMode, restrictFileModeSync } from '../../files/index.js';
import { databaseFileName } from './database-file.js';
import { migrate } from './migrate.js';
import { SqliteStore, type StoreOptions } from './store.js';

const busyTimeoutMs = 5000;

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * Switching a new file to WAL needs a moment alone with it, and while another process is creating or converting
 * the same file SQLite answers SQLITE_BUSY at once, without consulting the busy handler. Two processes starting on
 * a fresh data dir (the CLI next to `serve`) hit that, so retry with a short backoff for as long as the busy
 * timeout would have waited. This runs once per process start, so blocking briefly is acceptable.
 */
function enableWal(db: Database.Database): unknown {
  const deadline = Date.now() + busyTimeoutMs;
  for (let delayMs = 5; ; delayMs = Math.min(delayMs * 2, 100)) {
    try {
      return db.pragma('journal_mode = WAL', { simple: true });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(sleepCell, 0, 0, delayMs);
    }
  }
}

/**
 * SQLite creates a database 0644, and its -wal and -shm files with the database file's mode. So the file is
 * created 0600 before SQLite opens it, and files from older versions (a crash can leave -wal and -shm behind) are
 * made 0600 at every open.
 */
function makeDatabasePrivate(filePath: string): void {
  createPrivateFileSync(filePath);
  for (const file of [filePath, `${filePath}-wal`, `${filePath}-shm`]) restrictFileModeSync(file, 'The database file');
}

export function openStore(dataDir: string, options: StoreOptions = {}): SqliteStore {
  // The database holds key hashes, chat history and usage: only this user may read it.
  fs.mkdirSync(dataDir, { recursive: true, mode: privateDirMode });
  const filePath = path.join(dataDir, databaseFileName);
  makeDatabasePrivate(filePath);
  const db = new Database(filePath, { timeout: busyTimeoutMs });
  try {
    // busy_timeout first, so that everything after it waits for another process instead of failing.
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    // WAL lets readers and one writer work at once across processes; NORMAL is durable enough with WAL
    // (a power cut may lose the last commits, never corrupt the file).
    const journalMode = enableWal(db);
    if (journalMode !== 'wal') throw new Error(`could not switch the database to WAL mode (it is in ${journalMode})`);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return new SqliteStore(db, { ...options, dataDir });
  } catch (error) {
    db.close();
    throw error;
  }
}
