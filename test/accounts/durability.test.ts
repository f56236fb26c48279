// Spend is exact and durable: the real `switchyard serve`, many parallel streams through the openai SDK, a hard
// kill (SIGKILL) in the middle, then the database: intact, every row committed before the kill still there and
// complete, balance = granted − sum of the rows' costs; a restarted server serves again and enforces 402, and
// rules and prices changed through the CLI apply to the running server.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreditsStatus } from '../../shared/api/index.js';
import { cleanUpServe, runCli, startServer, type RunningServer } from '../support/cli.js';
import { startFakeUpstream, type FakeUpstream, type FakeUpstreamOptions } from '../support/fake-openai-upstream.js';
import { waitFor } from '../support/wait-for.js';

let dataDir: string;
let upstream: FakeUpstream;
const upstreamOptions: FakeUpstreamOptions = {
  models: ['echo-1'],
  pieces: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
  pieceDelayMs: 10,
};
const servers: RunningServer[] = [];
const env = { SWITCHYARD_SECRET_STORE: 'file' };
/** 11 prompt tokens × $1000/M + 8 completion tokens × $2000/M = $0.027. */
const requestCostNanos = 27_000_000;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-durability-'));
  upstream = await startFakeUpstream(upstreamOptions);
});

afterAll(() => cleanUpServe(dataDir, servers, [upstream]));

const databaseFile = () => path.join(dataDir, 'switchyard.db');

async function cli(...args: string[]) {
  const result = await runCli([...args, '--data-dir', dataDir], { env });
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout;
}

async function serve(): Promise<RunningServer> {
  const server = await startServer(['--data-dir', dataDir], env);
  servers.push(server);
  return server;
}

function chatCalls(): number {
  return upstream.chatRequests().length;
}

function committedRowIds(): string[] {
  const db = new Database(databaseFile(), { readonly: true });
  try {
    return db.prepare('SELECT id FROM usage_log').pluck().all() as string[];
  } finally {
    db.close();
  }
}

interface StreamResult {
  id: string | null;
  finish: string | null;
  cost: number | undefined;
  failed: boolean;
}

async function stream(client: OpenAI): Promise<StreamResult> {
  const result: StreamResult = { id: null, finish: null, cost: undefined, failed: false };
  try {
    const chunks = await client.chat.completions.create({
      model: 'up/echo-1',
      messages: [{ role: 'user', content: 'count' }],
      stream: true,
    });
    for await (const chunk of chunks) {
      result.id = chunk.id;
      result.finish = chunk.choices[0]?.finish_reason ?? result.finish;
      result.cost = (chunk.usage as { cost?: number } | undefined)?.cost ?? result.cost;
    }
  } catch {
    result.failed = true;
  }
  return result;
}

/** Reads the database as a fresh process would and checks that money reconciles exactly. */
async function reconcile(): Promise<{ rows: number; spent: number }> {
  const db = new Database(databaseFile());
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const spent = db.prepare('SELECT coalesce(sum(cost_nanos), 0) FROM usage_log').pluck().get() as number;
    const rows = db.prepare('SELECT count(*) FROM usage_log').pluck().get() as number;
    const granted = db.prepare('SELECT coalesce(sum(amount_nanos), 0) FROM credit_ledger').pluck().get() as number;
    const account = db.prepare('SELECT granted_nanos, used_nanos FROM credit_account').get();
    expect(account).toEqual({ granted_nanos: granted, used_nanos: spent });
    const perKey = db.prepare('SELECT coalesce(sum(cost_nanos), 0) FROM key_spend_daily').pluck().get();
    expect(perKey).toBe(spent);
    db.close();
    const status = JSON.parse(await cli('credits', 'show', '--json')) as CreditsStatus;
    expect(Math.round(status.balance! * 1e9)).toBe(granted - spent);
    return { rows, spent };
  } finally {
    if (db.open) db.close();
  }
}

describe('durability of usage and spend', () => {
  it(
    'survives a SIGKILL mid-run with every committed row, exact balances and a clean database',
    { timeout: 180_000 },
    async () => {
      await cli('providers', 'add', 'up', '--kind', 'openai', '--base-url', upstream.baseUrl, '--no-api-key');
      const key = JSON.parse(await cli('keys', 'create', '--name', 'load', '--json')) as { id: string; key: string };
      await cli('prices', 'set', 'up/echo-1', '--input', '1000', '--output', '2000');
      await cli('credits', 'set', '100');

      const server = await serve();
      const client = new OpenAI({ baseURL: server.baseUrl, apiKey: key.key, maxRetries: 0 });

      // 30 parallel streams run to their end; 10 more are held upstream so that they are in flight at the kill.
      const finishing = Array.from({ length: 30 }, () => stream(client));
      await waitFor(() => committedRowIds().length >= 20, { what: '20 committed usage rows', timeoutMs: 30_000 });
      let release!: () => void;
      upstreamOptions.gate = new Promise((resolve) => (release = resolve));
      const held = Array.from({ length: 10 }, () => stream(client));
      await waitFor(() => chatCalls() === 40, { what: 'all 40 requests upstream', timeoutMs: 30_000 });
      const committedBeforeKill = committedRowIds();
      server.child.kill('SIGKILL');
      await server.exited;
      const results = await Promise.all([...finishing, ...held]);
      upstreamOptions.gate = undefined;
      release();

      expect(results.slice(30).every((result) => result.failed)).toBe(true);
      const db = new Database(databaseFile());
      let rowIds: string[];
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const rows = db.prepare('SELECT * FROM usage_log').all() as Record<string, unknown>[];
        rowIds = rows.map((row) => row.id as string);
        for (const id of committedBeforeKill) expect(rowIds).toContain(id);
        const seenByClients = new Set(results.map((result) => result.id));
        for (const row of rows) {
          expect(seenByClients.has(row.id as string)).toBe(true);
          expect(row).toMatchObject({
            key_id: key.id,
            model: 'up/echo-1',
            provider: 'up',
            status: 200,
            finish_reason: 'stop',
            prompt_tokens: 11,
            completion_tokens: 8,
            cost: 0.027,
            cost_nanos: requestCostNanos,
            unpriced: 0,
          });
        }
      } finally {
        db.close();
      }
      const afterKill = await reconcile();
      expect(afterKill.rows).toBe(rowIds.length);
      expect(afterKill.spent).toBe(rowIds.length * requestCostNanos);

      // A restarted server serves again, applies CLI changes at its next request, and enforces 402 and 401.
      const restarted = await serve();
      const again = new OpenAI({ baseURL: restarted.baseUrl, apiKey: key.key, maxRetries: 0 });
      expect(await stream(again)).toMatchObject({ finish: 'stop', cost: 0.027 });
      await cli('prices', 'set', 'up/echo-1', '--input', '2000', '--output', '2000');
      expect(await stream(again)).toMatchObject({ finish: 'stop', cost: 0.038 });
      await cli('credits', 'set', '0.05');
      expect((await stream(again)).finish).toBe('stop'); // 0.05 → 0.012
      expect((await stream(again)).finish).toBe('stop'); // admitted while 0.012 was left → −0.026
      const callsBefore = chatCalls();
      const refused = await fetch(`${restarted.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'up/echo-1', messages: [{ role: 'user', content: 'x' }] }),
      });
      expect(refused.status).toBe(402);
      expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(402);
      expect(chatCalls()).toBe(callsBefore);
      await cli('credits', 'add', '1');
      expect((await stream(again)).finish).toBe('stop');
      await cli('keys', 'update', key.id, '--expires', '2000-01-01T00:00:00Z');
      const expired = await fetch(`${restarted.baseUrl}/key`, { headers: { authorization: `Bearer ${key.key}` } });
      expect(expired.status).toBe(401);

      restarted.child.kill('SIGTERM');
      expect(await restarted.exited).toBe(0);
      const final = await reconcile();
      expect(final.rows).toBe(afterKill.rows + 6);
      const status = JSON.parse(await cli('credits', 'show', '--json')) as CreditsStatus;
      expect(status.balance).toBeCloseTo(0.05 - 2 * 0.038 + 1 - 0.038, 9);
    },
  );
});
