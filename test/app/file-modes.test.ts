// Everything Switchyard writes into the data dir is for this user alone: files 0600 (the database, its -wal and
// -shm, secrets.json, mcp_settings.json), directories it creates 0700. A directory that already exists keeps its
// mode, and files left 0644 by older versions are made 0600 when the database is opened.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../main/app/index.js';
import { readSettingsFile } from '../../main/mcp/index.js';
import { openStore } from '../../main/store/index.js';

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-modes-'));
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** Every file and directory under `dir` with its mode, as `name: 0600`, so a failure names the culprit. */
function modesUnder(dir: string): Record<string, string> {
  const modes: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    modes[path.relative(dir, full)] = `0${modeOf(full).toString(8)}`;
  }
  return modes;
}

/** Runs the app as `switchyard serve` would: database open, a provider key saved, MCP settings read. */
async function useApp(dataDir: string): Promise<Record<string, string>> {
  const app = createApp({ dataDir, logger: pino({ level: 'silent' }), secretStoreMode: 'file', localProviders: false });
  try {
    await app.providers.add({ id: 'up', kind: 'openai', baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-up-secret' });
    await app.keys.create('script');
    await app.mcp.start();
    // While the app runs: SQLite's -wal and -shm exist only while a connection is open.
    return modesUnder(dataDir);
  } finally {
    await app.close();
  }
}

const privateFiles = {
  'switchyard.db': '0600',
  'switchyard.db-wal': '0600',
  'switchyard.db-shm': '0600',
  'secrets.json': '0600',
  'mcp_settings.json': '0600',
};

describe('file modes in the data dir', () => {
  it('creates the data dir (and its missing parents) 0700 and every file in it 0600', async () => {
    const dataDir = path.join(root, 'config', 'Switchyard');
    expect(await useApp(dataDir)).toEqual(privateFiles);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.dirname(dataDir))).toBe(0o700);
  });

  it('makes every file 0600 in a data dir that exists already as 0755, and leaves that dir’s mode alone', async () => {
    const dataDir = path.join(root, 'chosen');
    fs.mkdirSync(dataDir);
    fs.chmodSync(dataDir, 0o755);
    expect(await useApp(dataDir)).toEqual(privateFiles);
    expect(modeOf(dataDir)).toBe(0o755);
  });

  it('makes the MCP settings file and a data dir it creates private without the rest of the app', async () => {
    const dataDir = path.join(root, 'mcp-only');
    await readSettingsFile(dataDir);
    expect(modesUnder(dataDir)).toEqual({ 'mcp_settings.json': '0600' });
    expect(modeOf(dataDir)).toBe(0o700);
  });

  it('makes a database, -wal and -shm left 0644 by an older version 0600 when it opens them', async () => {
    // An older version's database, still open in WAL mode as after a crash: all three files exist, 0644.
    const filePath = path.join(root, 'switchyard.db');
    const old = new Database(filePath);
    try {
      old.pragma('journal_mode = WAL');
      old.exec('CREATE TABLE leftover (x)');
      for (const file of [filePath, `${filePath}-wal`, `${filePath}-shm`]) fs.chmodSync(file, 0o644);

      const store = openStore(root);
      try {
        expect(modesUnder(root)).toEqual({
          'switchyard.db': '0600',
          'switchyard.db-wal': '0600',
          'switchyard.db-shm': '0600',
        });
      } finally {
        await store.close();
      }
    } finally {
      old.close();
    }
  });
});
