// What the PostgreSQL store's building blocks cost, measured on a throwaway local cluster (test/support/postgres.ts)
// next to what SQLite costs today, to ground decision 017:
//
//   node --import tsx bench/postgres-primitives.ts [--quick]
//
// Round trips of a trivial query; NOTIFY delivery to another connection (and whether it arrives before the
// writer's own answer); the two ways of counting a global rate limit under concurrency (and whether exactly the
// limit is admitted); a usage batch with its spend in one transaction; migrations raced under an advisory lock;
// and the PostgreSQL store's own revocation barrier with two instances.
// Everything runs on one machine over loopback: a network between instances and the database adds its round trip
// to every figure that is a round trip (all but the batch sizes). Prints a markdown table.

import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openPostgresStore } from '../main/store/postgres/index.js';
import { startPostgres } from '../test/support/postgres.js';
import { percentile } from './stats.js';

const quick = process.argv.includes('--quick');
const rounds = quick ? 300 : 3_000;

interface Row {
  what: string;
  p50: string;
  p99: string;
  note: string;
}
const rows: Row[] = [];

function micros(samples: number[]): { p50: string; p99: string } {
  const sorted = Float64Array.from(samples).sort();
  const format = (ms: number) => (ms < 1 ? `${Math.round(ms * 1000)} µs` : `${ms.toFixed(2)} ms`);
  return { p50: format(percentile(sorted, 0.5)), p99: format(percentile(sorted, 0.99)) };
}

async function timeEach(count: number, run: (index: number) => Promise<unknown> | unknown): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < count; index++) {
    const start = performance.now();
    await run(index);
    samples.push(performance.now() - start);
  }
  return samples;
}

function record(what: string, samples: number[], note = ''): void {
  rows.push({ what, ...micros(samples), note });
}

async function sqliteToday(): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-bench-sqlite-'));
  const db = new Database(path.join(folder, 'bench.db'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE api_keys (id TEXT PRIMARY KEY, name TEXT NOT NULL)');
  db.prepare('INSERT INTO api_keys VALUES (?, ?)').run('k1', 'one');
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const byId = db.prepare('SELECT * FROM api_keys WHERE id = ?');
  record('SQLite: PRAGMA data_version (today, per request)', await timeEach(rounds, () => dataVersion.get()));
  record('SQLite: key by primary key', await timeEach(rounds, () => byId.get('k1')));
  db.close();
  fs.rmSync(folder, { recursive: true, force: true });
}

async function roundTrips(pool: pg.Pool): Promise<void> {
  await pool.query('SELECT 1'); // connect outside the measurement
  record('PostgreSQL: SELECT 1 through the pool', await timeEach(rounds, () => pool.query('SELECT 1')));
  await pool.query('CREATE TABLE api_keys (id text PRIMARY KEY, name text NOT NULL)');
  await pool.query("INSERT INTO api_keys VALUES ('k1', 'one')");
  const byId = { name: 'key-by-id', text: 'SELECT * FROM api_keys WHERE id = $1' };
  record(
    'PostgreSQL: key by primary key (prepared)',
    await timeEach(rounds, () => pool.query({ ...byId, values: ['k1'] })),
  );
}

/** From the writer's NOTIFY to the listener's event; and how often the event came before the writer's answer. */
async function notifyDelivery(url: string): Promise<void> {
  const listener = new pg.Client({ connectionString: url });
  const writer = new pg.Client({ connectionString: url });
  await Promise.all([listener.connect(), writer.connect()]);
  await listener.query('LISTEN store_changed');
  const count = Math.min(rounds, 1_000);
  const delivery: number[] = [];
  const afterAnswer: number[] = [];
  let beforeAnswer = 0;
  for (let index = 0; index < count; index++) {
    let answeredAt: number | null = null;
    const received = new Promise<number>((resolve) =>
      listener.once('notification', () => {
        const now = performance.now();
        if (answeredAt === null) beforeAnswer++;
        else afterAnswer.push(now - answeredAt);
        resolve(now);
      }),
    );
    const start = performance.now();
    // As a key deletion will: the change and its notification in one transaction.
    await writer.query(`BEGIN; DELETE FROM api_keys WHERE id = 'none'; NOTIFY store_changed, 'keys ${index}'; COMMIT`);
    answeredAt = performance.now();
    delivery.push((await received) - start);
  }
  record(
    'PostgreSQL: commit with NOTIFY → LISTEN on another connection',
    delivery,
    `the event came before the writer's own answer in ${beforeAnswer} of ${count}`,
  );
  if (afterAnswer.length > 0) {
    record('PostgreSQL: … of those after the answer, how much later', afterAnswer, `${afterAnswer.length} events`);
  }
  await Promise.all([listener.end(), writer.end()]);
}

/** `concurrency` clients race `attempts` admissions of one key against `limit`: how many pass, and how fast. */
async function rateLimits(pool: pg.Pool): Promise<void> {
  await pool.query(`
    CREATE TABLE rate_counter (key_id text, minute bigint, requests int NOT NULL, PRIMARY KEY (key_id, minute));
    CREATE TABLE rate_window (key_id text PRIMARY KEY, admitted bigint[] NOT NULL)`);
  const fixedWindow = {
    name: 'fixed-window',
    text: `INSERT INTO rate_counter AS c VALUES ($1, $2, 1)
           ON CONFLICT (key_id, minute) DO UPDATE SET requests = c.requests + 1 WHERE c.requests < $3
           RETURNING requests`,
  };
  // The last minute's admission times of the key, in one row: the row lock orders racing admissions, and the
  // window slides exactly as the in-process limiter's does today.
  const slidingWindow = {
    name: 'sliding-window',
    text: `INSERT INTO rate_window AS w VALUES ($1, ARRAY[$2::bigint])
           ON CONFLICT (key_id) DO UPDATE
             SET admitted = array(SELECT t FROM unnest(w.admitted) t WHERE t > $2 - 60000) || $2::bigint
             WHERE cardinality(array(SELECT t FROM unnest(w.admitted) t WHERE t > $2 - 60000)) < $3
           RETURNING cardinality(admitted)`,
  };
  const limit = 50;
  const attempts = quick ? 400 : 2_000;
  const concurrency = 8;
  for (const [label, statement, values] of [
    [
      'fixed minute, INSERT … ON CONFLICT … RETURNING',
      fixedWindow,
      (key: string) => [key, Math.floor(Date.now() / 60_000), limit],
    ],
    ['sliding 60 s, one row per key (array of times)', slidingWindow, (key: string) => [key, Date.now(), limit]],
  ] as const) {
    // Sequential: the added latency of one admission for a key with an rpm rule.
    const sequential = await timeEach(Math.min(rounds, 1_000), (index) =>
      pool.query({ ...statement, values: values(`seq-${label}-${index}`) }),
    );
    // Racing: the same key from `concurrency` connections at once.
    let admitted = 0;
    let next = 0;
    const started = performance.now();
    const samples: number[] = [];
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < attempts) {
          const start = performance.now();
          const result = await pool.query({ ...statement, values: values('hot-key') });
          samples.push(performance.now() - start);
          admitted += result.rowCount ?? 0;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    record(`Rate limit, ${label}`, sequential, 'one key, sequential');
    record(
      `Rate limit, ${label}`,
      samples,
      `one key from ${concurrency} connections: ${Math.round(attempts / seconds)}/s, ${admitted} of ${attempts} admitted (limit ${limit})`,
    );
  }
}

/** 200 usage rows (one batch of today's usage log) and the spend they add, in one transaction. */
async function usageBatch(pool: pg.Pool): Promise<void> {
  await pool.query(`
    CREATE TABLE usage_log (id text PRIMARY KEY, key_id text, model text, created_at bigint, cost_nanos bigint,
                            prompt_tokens int, completion_tokens int);
    CREATE TABLE credit_account (id int PRIMARY KEY, granted_nanos bigint, used_nanos bigint);
    CREATE TABLE key_spend_daily (key_id text, day int, cost_nanos bigint, PRIMARY KEY (key_id, day));
    INSERT INTO credit_account VALUES (1, 1000000000000, 0)`);
  let batch = 0;
  const samples = await timeEach(quick ? 30 : 200, async () => {
    const ids = Array.from({ length: 200 }, (_, index) => `gen-${batch}-${index}`);
    batch++;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const inserted = await client.query<{ key_id: string; cost_nanos: string }>(
        `INSERT INTO usage_log
           SELECT id, 'k' || (i % 5), 'up/echo-1', $2::bigint, 1500, 12, 34
           FROM unnest($1::text[]) WITH ORDINALITY AS r(id, i)
         ON CONFLICT (id) DO NOTHING RETURNING key_id, cost_nanos`,
        [ids, Date.now()],
      );
      const total = inserted.rows.reduce((sum, row) => sum + Number(row.cost_nanos), 0);
      await client.query('UPDATE credit_account SET used_nanos = used_nanos + $1 WHERE id = 1', [total]);
      await client.query(
        `INSERT INTO key_spend_daily AS s SELECT key_id, $1, sum(cost_nanos) FROM unnest($2::text[], $3::bigint[]) AS r(key_id, cost_nanos) GROUP BY key_id
         ON CONFLICT (key_id, day) DO UPDATE SET cost_nanos = s.cost_nanos + excluded.cost_nanos`,
        [
          Math.floor(Date.now() / 86_400_000),
          inserted.rows.map((row) => row.key_id),
          inserted.rows.map((row) => row.cost_nanos),
        ],
      );
      await client.query("NOTIFY store_changed, 'spend'");
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  });
  record('Usage batch: 200 rows + credits + daily spend + NOTIFY, one transaction', samples);
  const atomic = {
    name: 'spend',
    text: 'UPDATE credit_account SET used_nanos = used_nanos + $1 WHERE id = 1 RETURNING granted_nanos - used_nanos',
  };
  record(
    'Credits: atomic UPDATE … RETURNING balance',
    await timeEach(Math.min(rounds, 1_000), () => pool.query({ ...atomic, values: [1] })),
  );
}

/**
 * The store itself, two instances on one database: a revocation (deleteKey) answers once both applied it (the
 * barrier of decision 017), and an admission of a key with an rpm rule.
 */
async function storeBarrier(url: string): Promise<void> {
  const first = await openPostgresStore(url, { instance: true });
  const second = await openPostgresStore(url, { instance: true });
  try {
    const count = Math.min(rounds, 500);
    const key = (index: number) => ({
      id: `bench-${index}`,
      name: 'bench',
      label: 'sk-…',
      secretHash: Buffer.alloc(32),
      createdAt: Date.now(),
    });
    const inserts = await timeEach(count, (index) => first.insertKey(key(index)));
    record('Store, 2 instances: insertKey through the barrier', inserts, 'answers once both instances accept the key');
    const deletes = await timeEach(count, (index) => first.deleteKey(`bench-${index}`));
    record('Store, 2 instances: deleteKey through the barrier', deletes, 'answers once both instances refuse the key');
    await first.insertKey(key(count));
    const admissions = await timeEach(count, () => second.admitRequest(`bench-${count}`, 1_000_000, Date.now()));
    record('Store: admitRequest (rpm rule, shared window)', admissions, 'one key, sequential');
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
}

/** Three "instances" start at once and run the same migrations under pg_advisory_lock: each is applied once. */
async function migrationRace(url: string): Promise<void> {
  const lockId = 7_420_017;
  const migrate = async (): Promise<{ ms: number; applied: number }> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const start = performance.now();
    let applied = 0;
    try {
      await client.query('SELECT pg_advisory_lock($1)', [lockId]);
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, applied_at timestamptz DEFAULT now())',
      );
      for (const version of [1, 2, 3]) {
        const done = await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version]);
        if (done.rowCount) continue;
        await client.query('BEGIN');
        await client.query(`CREATE TABLE migrated_${version} (id int)`);
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
        await client.query('COMMIT');
        applied++;
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [lockId]).catch(() => undefined);
      await client.end();
    }
    return { ms: performance.now() - start, applied };
  };
  const results = await Promise.all([migrate(), migrate(), migrate()]);
  const applied = results.map((result) => result.applied).sort();
  record(
    'Migrations: 3 instances starting at once, under pg_advisory_lock',
    results.map((result) => result.ms),
    `migrations applied by each: ${applied.join(', ')} (3 in all expected)`,
  );
}

const postgres = await startPostgres();
try {
  const url = await postgres.createDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  await sqliteToday();
  await roundTrips(pool);
  await notifyDelivery(url);
  await rateLimits(pool);
  await usageBatch(pool);
  const { rows: versionRows } = await pool.query<{ server_version: string }>('SHOW server_version');
  await pool.end();
  await migrationRace(url);
  await storeBarrier(await postgres.createDatabase());
  console.log(
    `PostgreSQL ${versionRows[0]?.server_version}, ${os.cpus().length} cores (${os.cpus()[0]?.model}), node ${process.version}, ${rounds} rounds\n`,
  );
  console.log('| what | p50 | p99 | note |\n| --- | --: | --: | --- |');
  for (const row of rows) console.log(`| ${row.what} | ${row.p50} | ${row.p99} | ${row.note} |`);
} finally {
  await postgres.stop();
}
