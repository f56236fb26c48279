// The test PostgreSQL itself: it starts, answers queries over a pooled connection, keeps databases apart, and
// leaves nothing behind when stopped.

import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from './postgres.js';

describe('the throwaway PostgreSQL for tests', () => {
  let postgres: TestPostgres;

  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  it('answers a query through a pool', async () => {
    const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
    try {
      const { rows } = await pool.query<{ answer: number; version: string }>(
        'SELECT $1::int + 1 AS answer, version() AS version',
        [41],
      );
      expect(rows[0]?.answer).toBe(42);
      expect(rows[0]?.version).toMatch(/^PostgreSQL \d+/);
    } finally {
      await pool.end();
    }
  });

  it('creates a separate empty database per call', async () => {
    const first = await postgres.createDatabase();
    const second = await postgres.createDatabase();
    expect(first).not.toBe(second);
    const client = new pg.Client({ connectionString: first });
    await client.connect();
    try {
      await client.query('CREATE TABLE only_here (id int)');
    } finally {
      await client.end();
    }
    const other = new pg.Client({ connectionString: second });
    await other.connect();
    try {
      const { rows } = await other.query("SELECT to_regclass('only_here') AS found");
      expect(rows[0]?.found).toBeNull();
    } finally {
      await other.end();
    }
  });

  it('refuses a wrong password', async () => {
    const url = new URL(postgres.url);
    url.password = 'not-the-password';
    const client = new pg.Client({ connectionString: url.toString() });
    await expect(client.connect()).rejects.toThrow(/password authentication failed/);
  });
});

describe('stopping the throwaway PostgreSQL', () => {
  it('ends the server and removes its folder', async () => {
    const postgres = await startPostgres();
    expect(fs.existsSync(postgres.folder)).toBe(true);
    await postgres.stop();
    const client = new pg.Client({ connectionString: postgres.url, connectionTimeoutMillis: 2_000 });
    await expect(client.connect()).rejects.toThrow(/ECONNREFUSED/);
    expect(fs.existsSync(postgres.folder)).toBe(false);
    await postgres.stop(); // a second stop is harmless
  });
});
