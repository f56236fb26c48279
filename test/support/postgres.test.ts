// The test PostgreSQL itself: it starts, answers queries over a pooled connection, keeps databases apart, and
// leaves nothing behind when stopped.

import fs from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestPostgres } from './postgres-store.js';
import { startPostgres, withPostgresClient } from './postgres.js';

describe('the throwaway PostgreSQL for tests', () => {
  const cluster = useTestPostgres();

  it('answers a query through a pool', async () => {
    const pool = new pg.Pool({ connectionString: cluster().url, max: 2 });
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
    const first = await cluster().createDatabase();
    const second = await cluster().createDatabase();
    expect(first).not.toBe(second);
    await withPostgresClient(first, async (client) => {
      await client.query('CREATE TABLE only_here (id int)');
    });
    await withPostgresClient(second, async (other) => {
      const { rows } = await other.query("SELECT to_regclass('only_here') AS found");
      expect(rows[0]?.found).toBeNull();
    });
  });

  it('refuses a wrong password', async () => {
    const url = new URL(cluster().url);
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

  it('lets a pool that was just ended close without an error', async () => {
    const postgres = await startPostgres();
    const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
    const errors: Error[] = [];
    pool.on('error', (error) => errors.push(error));
    await Promise.all(Array.from({ length: 4 }, () => pool.query('SELECT pg_sleep(0.05)')));
    // end() resolves before the sockets close: stopping at once must not end those sessions from the server side.
    await pool.end();
    await postgres.stop();
    expect(errors.map((error) => error.message)).toEqual([]);
  });

  it('still stops when a client leaves its connection open', async () => {
    const postgres = await startPostgres();
    const client = new pg.Client({ connectionString: postgres.url });
    const errors: string[] = [];
    client.on('error', (error) => errors.push((error as { code?: string }).code ?? error.message));
    await client.connect();
    await postgres.stop();
    expect(fs.existsSync(postgres.folder)).toBe(false);
    expect(errors[0]).toBe('57P01'); // terminating connection due to administrator command
  });
});
