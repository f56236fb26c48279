// A team server: three `switchyard serve --database-url …` processes with separate data folders on one real
// PostgreSQL, in front of one fake upstream, behaving as one gateway (decision 017). Everything goes through what a
// team would use: the CLI for setup, the HTTP API of each instance, and the database itself for the final counts.

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../support/cli.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';
import { waitFor } from '../support/wait-for.js';
import { startTeam, type Team } from './team-harness.js';

const providerSecret = 'sk-upstream-team-7f3c9a';
const costPerRequest = 0.01;

let team: Team;
let upstream: FakeUpstream;
let pool: pg.Pool;
let instances: RunningServer[];
let managementKey: string;

/** A command on the team database, which never prints the provider's key. */
async function cli(args: string[]): Promise<string> {
  const result = await team.run(args);
  expect(result.code, result.stderr).toBe(0);
  expect(`${result.stdout}${result.stderr}`).not.toContain(providerSecret);
  return result.stdout;
}

const createKey = (name: string, ...rules: string[]) => team.createKey(name, ...rules);
const serve = () => team.serve();

function chat(server: RunningServer, key: string, stream = false): Promise<Response> {
  return fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'team/echo-1', stream, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

/** Answers the status and reads the body to its end, so the request is over (and its usage recorded) after it. */
async function status(response: Promise<Response>): Promise<number> {
  const answered = await response;
  await answered.arrayBuffer();
  return answered.status;
}

async function stop(server: RunningServer, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  server.child.kill(signal);
  await server.exited;
}

beforeAll(async () => {
  upstream = await startFakeUpstream({
    usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14, cost: costPerRequest },
  });
  team = await startTeam({ env: { PROVIDER_KEY: providerSecret }, serveArgs: ['--no-ui'] });
  pool = team.pool;
  await cli([
    'providers',
    'add',
    'team',
    '--kind',
    'openai',
    '--base-url',
    upstream.baseUrl,
    '--api-key-env',
    'PROVIDER_KEY',
  ]);
  managementKey = (await createKey('admin', '--management')).key;
  // Three instances starting at once on a database migrated by the CLI above.
  instances = await Promise.all([serve(), serve(), serve()]);
}, 120_000);

afterAll(async () => {
  await team?.close();
  await upstream?.close();
});

describe('three instances on one PostgreSQL', () => {
  it('share the provider and its key, which the database holds only sealed', async () => {
    for (const server of instances) expect(await status(chat(server, managementKey))).toBe(200);
    const sent = upstream.chatRequests().slice(-3);
    for (const request of sent) expect(request.headers.authorization).toBe(`Bearer ${providerSecret}`);

    const { rows } = await pool.query<{ name: string; sealed: string }>('SELECT name, sealed FROM sealed_secrets');
    expect(rows.map((row) => row.name)).toContain('provider:team');
    for (const row of rows) {
      expect(row.sealed).toMatch(/^v1\./);
      expect(row.sealed).not.toContain(providerSecret);
    }
    // Gateway keys are stored as hashes only.
    const keys = await pool.query<{ secret_hash: Buffer }>('SELECT secret_hash FROM api_keys');
    for (const key of keys.rows) expect(key.secret_hash.toString('latin1')).not.toContain(managementKey.slice(-20));
  });

  it('refuse a key deleted through one instance on the very next request through every other', async () => {
    const [a, b, c] = instances as [RunningServer, RunningServer, RunningServer];
    for (let round = 0; round < 5; round += 1) {
      const created = await fetch(`${a.baseUrl}/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${managementKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `short-lived-${round}` }),
      });
      expect(created.status).toBe(201);
      const { key, data } = (await created.json()) as { key: string; data: { hash: string } };
      // Created through A, accepted by B and C at once: its secret was answered only once every instance had it.
      expect(await status(chat(b, key))).toBe(200);
      expect(await status(chat(c, key))).toBe(200);

      const deleted = await fetch(`${a.baseUrl}/keys/${data.hash}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${managementKey}` },
      });
      expect(deleted.status).toBe(200);
      for (let attempt = 0; attempt < 40; attempt += 1) {
        expect(await status(chat(attempt % 2 === 0 ? b : c, key))).toBe(401);
      }
    }
  });

  it('give a key with --rpm 4 exactly four answers a minute however its requests are spread', async () => {
    const { key } = await createKey('limited', '--rpm', '4');
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, index) => status(chat(instances[index % 3]!, key))),
    );
    expect(statuses.filter((code) => code === 200)).toHaveLength(4);
    expect(statuses.filter((code) => code === 429)).toHaveLength(8);
    // Every instance refuses now, whichever admitted the four.
    for (const server of instances) expect(await status(chat(server, key))).toBe(429);
  });

  it('count a key’s tokens per minute across instances: once the last minute’s answers reach --tpm, all refuse', async () => {
    // Each answer uses 14 tokens (11 + 3): three answers, one per instance, reach a limit of 40.
    const { key, id } = await createKey('token-limited', '--tpm', '40');
    for (const server of instances) expect(await status(chat(server, key))).toBe(200);
    await waitFor(
      async () =>
        Number((await pool.query('SELECT count(*) AS n FROM usage_log WHERE key_id = $1', [id])).rows[0].n) === 3,
      { what: 'the three answers written', timeoutMs: 5_000 },
    );
    for (const server of instances) {
      const refused = await chat(server, key);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/40 tokens/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('stop every instance with 402 once the credits are spent, and count each request once', async () => {
    const { key, id } = await createKey('spender');
    await cli(['credits', 'set', String(costPerRequest * 5)]);
    try {
      let answered = 0;
      for (let index = 0; index < 60; index += 1) {
        const code = await status(chat(instances[index % 3]!, key));
        if (code === 402) break;
        expect(code).toBe(200);
        answered += 1;
      }
      // Each instance refuses from its own memory: past the balance only by what the others had answered but not
      // yet written (at most one batch window each; README, Team server), never without end.
      expect(answered).toBeGreaterThanOrEqual(5);
      expect(answered).toBeLessThan(60);
      // Within a batch window every instance has the spend of the others.
      await waitFor(
        async () => {
          const codes = await Promise.all(instances.map((server) => status(chat(server, key))));
          return codes.every((code) => code === 402);
        },
        { what: '402 from every instance', timeoutMs: 5_000 },
      );
      // Every answered request was charged once, whichever instance answered it.
      await waitFor(
        async () =>
          Number(
            (await pool.query('SELECT count(*) AS n FROM usage_log WHERE key_id = $1 AND status = 200', [id])).rows[0]
              .n,
          ) === answered,
        { what: 'the rows of every answer', timeoutMs: 5_000 },
      );
      const totals = await pool.query<{ used: string; sum: string; mine: string }>(
        `SELECT (SELECT used_nanos FROM credit_account) AS used,
                (SELECT sum(cost_nanos) FROM usage_log) AS sum,
                (SELECT sum(cost_nanos) FROM usage_log WHERE key_id = $1) AS mine`,
        [id],
      );
      expect(Number(totals.rows[0]!.used)).toBe(Number(totals.rows[0]!.sum));
      expect(Number(totals.rows[0]!.mine)).toBe(Math.round(answered * costPerRequest * 1e9));
    } finally {
      await cli(['credits', 'unset']);
    }
  });

  it('lose no committed usage row when an instance is killed under load, and keep spend equal to the rows', async () => {
    const victim = await serve();
    const { key } = await createKey('load');
    const before = Number((await pool.query('SELECT count(*) AS n FROM usage_log')).rows[0].n);
    let answered = 0;
    const load = Array.from({ length: 8 }, async () => {
      for (;;) {
        try {
          if ((await status(chat(victim, key, true))) === 200) answered += 1;
        } catch {
          return; // the instance is gone
        }
      }
    });
    await waitFor(async () => answered >= 40, { what: '40 answers under load', timeoutMs: 30_000 });
    // Rows committed so far, as the database has them now.
    const committed = (await pool.query<{ id: string }>('SELECT id FROM usage_log')).rows.map((row) => row.id);
    await stop(victim, 'SIGKILL');
    await Promise.all(load);

    const after = (await pool.query<{ id: string }>('SELECT id FROM usage_log')).rows.map((row) => row.id);
    expect(after).toEqual(expect.arrayContaining(committed));
    // At most the killed instance's unwritten batch is missing: never more rows than answers.
    expect(after.length - before).toBeLessThanOrEqual(answered);
    const totals = await pool.query<{ used: string; sum: string }>(
      'SELECT (SELECT used_nanos FROM credit_account) AS used, (SELECT coalesce(sum(cost_nanos), 0) FROM usage_log) AS sum',
    );
    expect(Number(totals.rows[0]!.used)).toBe(Number(totals.rows[0]!.sum));
  }, 60_000);

  it('write every answered request as one row when the instances stop gracefully', async () => {
    const { key, id } = await createKey('counted');
    let answered = 0;
    for (let index = 0; index < 30; index += 1) {
      if ((await status(chat(instances[index % 3]!, key, index % 2 === 0))) === 200) answered += 1;
    }
    expect(answered).toBe(30);
    await Promise.all(instances.map((server) => stop(server)));
    const { rows } = await pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM usage_log WHERE key_id = $1 AND status = 200',
      [id],
    );
    expect(Number(rows[0]!.n)).toBe(answered);
  });
});
