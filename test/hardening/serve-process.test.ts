// The real `switchyard serve` in its own process: loopback by default and a warning when bound wider, CORS from
// flags and the environment, no secret in its logs even at trace level, SIGTERM drains streams under load, and
// `kill -9` under load loses no committed usage row and leaves a consistent database, and callers that stop reading
// endless streams neither grow its memory nor hold their streams past --stalled-caller-timeout; a body over the
// size limit reaches the openai SDK as a 413, not as a broken connection it retries.

import fs from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../main/store/index.js';
import { runCli, startServer, type RunningServer } from '../support/cli.js';
import { waitFor } from '../support/wait-for.js';
import type { FakeOpenAI } from '../support/fake-openai.js';
import { faultUpstream, faults, sseData } from './harness.js';

const providerSecret = 'sk-provider-Zq8v3LmT0pXw1NcR7yBh';
let upstream: FakeOpenAI;
let upstreamUrl: string;
const servers: RunningServer[] = [];
const dataDirs: string[] = [];

interface Setup {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  gatewayKey: string;
  gatewayKeyId: string;
}

/** A fresh data dir with the fault upstream as provider `fault` and one gateway key. */
async function setUp(): Promise<Setup> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-hardening-'));
  dataDirs.push(dataDir);
  const env = { SWITCHYARD_SECRET_STORE: 'file', PROVIDER_KEY: providerSecret };
  const added = await runCli(
    ['providers', 'add', 'fault', '--kind', 'openai', '--base-url', upstreamUrl, '--api-key-env', 'PROVIDER_KEY'],
    { env: { ...env, SWITCHYARD_DATA_DIR: dataDir } },
  );
  expect(added.code, added.stderr).toBe(0);
  const created = await runCli(['keys', 'create', '--name', 'hardening', '--json'], {
    env: { ...env, SWITCHYARD_DATA_DIR: dataDir },
  });
  expect(created.code, created.stderr).toBe(0);
  const { key, id } = JSON.parse(created.stdout) as { key: string; id: string };
  return { dataDir, env, gatewayKey: key, gatewayKeyId: id };
}

async function serve(setup: Setup, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const server = await startServer(['--data-dir', setup.dataDir, '--no-ui', ...args], { ...setup.env, ...env });
  servers.push(server);
  return server;
}

function chat(server: RunningServer, key: string, model: string, stream: boolean, signal?: AbortSignal) {
  return fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
    signal,
  });
}

beforeAll(async () => {
  upstream = faultUpstream();
  upstreamUrl = await upstream.start();
});

afterEach(async () => {
  for (const server of servers.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
});

afterAll(async () => {
  await upstream.close();
  for (const dataDir of dataDirs) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('binding and CORS from the command line', () => {
  it('listens on 127.0.0.1 by default; --host 0.0.0.0 warns; CORS comes from --cors-origin and the environment', async () => {
    const setup = await setUp();
    const local = await serve(setup);
    expect(local.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(local.stderr()).not.toContain('warning: listening on');
    local.child.kill('SIGTERM');
    await local.exited;

    const wide = await serve(setup, ['--host', '0.0.0.0', '--cors-origin', 'https://a.example'], {
      SWITCHYARD_CORS_ORIGINS: 'https://b.example',
    });
    expect(wide.stderr()).toContain('warning: listening on 0.0.0.0');
    const port = new URL(wide.baseUrl).port;
    for (const origin of ['https://a.example', 'https://b.example']) {
      const preflight = await fetch(`http://127.0.0.1:${port}/api/v1/chat/completions`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    }
    const refused = await fetch(`http://127.0.0.1:${port}/api/v1/models`, {
      headers: { origin: 'https://c.example', authorization: `Bearer ${setup.gatewayKey}` },
    });
    expect(refused.status).toBe(403);
  });

  it('refuses to start with a --cors-origin that is not an origin', async () => {
    const result = await runCli(['serve', '--port', '0', '--cors-origin', 'https://a.example/path'], {
      env: { SWITCHYARD_SECRET_STORE: 'file', SWITCHYARD_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sy-')) },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/not an origin/);
  });
});

describe('secrets never reach the logs', () => {
  it('keeps gateway and provider keys out of stdout and stderr at trace level, failures included', async () => {
    const setup = await setUp();
    const server = await serve(setup, [], { SWITCHYARD_LOG_LEVEL: 'trace' });
    let stdout = '';
    server.child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    const key = setup.gatewayKey;
    const wrongKey = `${key.slice(0, -4)}AAAA`;
    const answers: string[] = [];
    const quick = Object.values(faults).filter(
      (fault) => !['slow', 'steady', 'hang-headers', 'hang-mid-stream', 'endless'].includes(fault),
    );
    for (const model of quick) {
      for (const stream of [true, false]) {
        const response = await chat(server, key, `fault/${model}`, stream);
        answers.push(await response.text());
      }
    }
    answers.push(await (await chat(server, wrongKey, `fault/${faults.ok}`, false)).text());
    answers.push(await (await fetch(`${server.baseUrl}/models?api_key=${key}`, { headers: {} })).text());
    const pasted = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-title': key },
      body: JSON.stringify({ model: key, messages: [{ role: 'user', content: `my keys: ${key} ${providerSecret}` }] }),
    });
    answers.push(await pasted.text());
    const badJson = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: `{"model": "${key}", ${providerSecret}`,
    });
    expect(badJson.status).toBe(400);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const logs = stdout + server.stderr();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [key, key.slice(-43), wrongKey.slice(-43), providerSecret, providerSecret.slice(12)]) {
      expect(logs).not.toContain(secret);
    }
    // Callers never see the provider's key either, whatever the upstream quoted.
    for (const answer of answers) expect(answer).not.toContain(providerSecret);
    // Nor does the usage log.
    const db = new Database(path.join(setup.dataDir, 'switchyard.db'), { readonly: true });
    const errors = db.prepare('SELECT error FROM usage_log WHERE error IS NOT NULL').pluck().all() as string[];
    db.close();
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error).not.toContain(providerSecret);
  }, 90_000);
});

describe('stopping under load', () => {
  it('SIGTERM lets every in-flight stream finish, refuses new work, and writes every usage row', async () => {
    const setup = await setUp();
    const server = await serve(setup);
    const streams = 20;
    let started = 0;
    const bodies = Array.from({ length: streams }, async () => {
      const response = await chat(server, setup.gatewayKey, `fault/${faults.steady}`, true);
      let text = '';
      for await (const piece of response.body!) {
        if (text === '') started += 1;
        text += Buffer.from(piece).toString();
      }
      return text;
    });
    await expect.poll(() => started, { timeout: 20_000 }).toBe(streams);
    server.child.kill('SIGTERM');
    await expect.poll(() => server.stderr()).toContain('SIGTERM');
    await expect(chat(server, setup.gatewayKey, `fault/${faults.ok}`, false)).rejects.toThrow();

    for (const text of await Promise.all(bodies)) {
      const events = sseData(text);
      expect(events.at(-1)).toBe('[DONE]');
      const last = JSON.parse(events.at(-2)!) as { choices: { finish_reason: string }[] };
      expect(last.choices[0]!.finish_reason).toBe('stop');
    }
    expect(await server.exited).toBe(0);
    const db = new Database(path.join(setup.dataDir, 'switchyard.db'), { readonly: true });
    const rows = db
      .prepare("SELECT count(*) FROM usage_log WHERE status = 200 AND finish_reason = 'stop' AND streamed = 1")
      .pluck()
      .get();
    db.close();
    expect(rows).toBe(streams);
  });

  it('kill -9 under load loses no committed usage row and leaves a consistent database', async () => {
    const setup = await setUp();
    const server = await serve(setup);
    const dbFile = path.join(setup.dataDir, 'switchyard.db');
    const reader = new Database(dbFile, { readonly: true });
    const countRows = reader.prepare('SELECT count(*) FROM usage_log').pluck();
    let answered = 0;
    let running = true;
    const loops = Array.from({ length: 16 }, async (_, index) => {
      while (running) {
        try {
          const response = await chat(server, setup.gatewayKey, `fault/${faults.ok}`, index % 2 === 0);
          await response.text();
          if (response.ok) answered += 1;
        } catch {
          return; // the server is gone
        }
      }
    });
    let committed = 0;
    const deadline = Date.now() + 20_000;
    // Under load until a good number of rows is committed (and more are queued), then killed mid-flight.
    while (committed < 300 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      committed = Math.max(committed, countRows.get() as number);
    }
    expect(committed).toBeGreaterThan(0);
    committed = Math.max(committed, countRows.get() as number);
    server.child.kill('SIGKILL');
    await server.exited;
    running = false;
    await Promise.all(loops);
    reader.close();

    const db = new Database(dbFile);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    const rows = db.prepare('SELECT count(*) FROM usage_log').pluck().get() as number;
    expect(rows).toBeGreaterThanOrEqual(committed);
    expect(rows).toBeLessThanOrEqual(answered + 16);
    const broken = db
      .prepare("SELECT count(*) FROM usage_log WHERE id IS NULL OR model != 'fault/ok' OR status != 200")
      .pluck()
      .get();
    expect(broken).toBe(0);
    db.close();
    // The app opens it again as usual (migrations, WAL recovery).
    const store = openStore(setup.dataDir);
    expect(await store.listUsage({ limit: 1 })).toHaveLength(1);
    await store.close();
  });
});

describe('a body over the size limit', () => {
  it('reaches the openai SDK as a 413 APIError at its first attempt, never as a connection error it retries', async () => {
    const setup = await setUp();
    const server = await serve(setup);
    let attempts = 0;
    const client = new OpenAI({
      apiKey: setup.gatewayKey,
      baseURL: server.baseUrl.replace('/api/v1', '/v1'),
      maxRetries: 2,
      fetch: (url, init) => {
        attempts += 1;
        return fetch(url, init);
      },
    });
    const content = 'x'.repeat(11 * 1024 * 1024);
    for (let round = 0; round < 5; round += 1) {
      attempts = 0;
      const failure = await client.chat.completions
        .create({ model: `fault/${faults.ok}`, messages: [{ role: 'user', content }] })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OpenAI.APIError);
      expect(failure).not.toBeInstanceOf(OpenAI.APIConnectionError);
      expect(failure).toMatchObject({ status: 413 });
      expect(attempts).toBe(1);
    }
  });
});

/** A process's resident memory in MB (Linux /proc). */
function residentMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

describe('callers that stop reading', () => {
  it.runIf(fs.existsSync('/proc'))(
    '20 callers of endless streams that never read: memory stays bounded and each stream ends after --stalled-caller-timeout',
    async () => {
      const setup = await setUp();
      const server = await serve(setup, ['--stalled-caller-timeout', '2']);
      const pid = server.child.pid!;
      const port = Number(new URL(server.baseUrl).port);
      // A caller that leaves mid-stream first: its usage estimate loads the token counter, which stays loaded.
      const leaving = new AbortController();
      const first = await chat(server, setup.gatewayKey, `fault/${faults.slow}`, true, leaving.signal);
      await first.body!.getReader().read();
      leaving.abort();
      const dbFile = path.join(setup.dataDir, 'switchyard.db');
      const cancelledRows = () => {
        const db = new Database(dbFile, { readonly: true });
        const count = db.prepare("SELECT count(*) FROM usage_log WHERE finish_reason = 'cancelled'").pluck().get();
        db.close();
        return count as number;
      };
      await waitFor(() => cancelledRows() === 1, { what: 'the usage row of the caller who left' });
      const before = residentMb(pid);

      const streamsBefore = upstream.chatRequests().length;
      const body = JSON.stringify({
        model: `fault/${faults.endless}`,
        stream: true,
        messages: [{ role: 'user', content: 'Write forever.' }],
      });
      const callers = Array.from({ length: 20 }, () => {
        const socket = connect(port, '127.0.0.1');
        socket.pause(); // never reads a byte
        socket.write(
          `POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
            `Authorization: Bearer ${setup.gatewayKey}\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        return socket;
      });
      let peak = before;
      const sampling = setInterval(() => (peak = Math.max(peak, residentMb(pid))), 100);
      try {
        await waitFor(() => upstream.chatRequests().length === streamsBefore + 20, { what: '20 upstream streams' });
        const streams = upstream.chatRequests().slice(streamsBefore);
        // No caller ever reads: each stream ends once its caller took nothing for 2 s, closing its upstream.
        await waitFor(() => streams.every((request) => request.closedAt !== null), {
          what: 'every upstream stream to be closed',
          timeoutMs: 120_000,
          everyMs: 100,
        });
        // The upstream could send what the socket buffers on the way hold, not what it would have generated.
        expect(Math.max(...streams.map((request) => request.sent))).toBeLessThan(32 * 1024 * 1024);
        await waitFor(() => cancelledRows() === 21, { what: 'a usage row per stream, cancelled' });
      } finally {
        clearInterval(sampling);
        for (const socket of callers) socket.destroy();
      }
      const after = residentMb(pid);
      // Generous bounds: a stalled stream's memory used to grow with what its caller's socket took, several
      // hundred MB for these 20 (and more again once they were counted for the usage log).
      expect(peak - before).toBeLessThan(200);
      expect(after - before).toBeLessThan(200);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    },
    180_000,
  );
});

/** The ids of a process's children (Linux /proc). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('--workers', () => {
  it.runIf(fs.existsSync('/proc'))(
    'serves from several processes on one port; a key deleted by the CLI is refused at once; SIGTERM drains all',
    async () => {
      const setup = await setUp();
      const server = await serve(setup, ['--workers', '2']);
      expect(childrenOf(server.child.pid!)).toHaveLength(2);
      const ask = async () => {
        const response = await fetch(`${server.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${setup.gatewayKey}`,
            'content-type': 'application/json',
            connection: 'close', // a new connection each time: the primary deals them out to both workers
          },
          body: JSON.stringify({
            model: `fault/${faults.ok}`,
            stream: false,
            messages: [{ role: 'user', content: 'hi' }],
          }),
        });
        await response.text();
        return response.status;
      };
      expect(await Promise.all(Array.from({ length: 20 }, ask))).toEqual(Array(20).fill(200));

      const deleted = await runCli(['keys', 'delete', setup.gatewayKeyId], {
        env: { ...setup.env, SWITCHYARD_DATA_DIR: setup.dataDir },
      });
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(await Promise.all(Array.from({ length: 20 }, ask))).toEqual(Array(20).fill(401));

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const db = new Database(path.join(setup.dataDir, 'switchyard.db'), { readonly: true });
      expect(db.prepare('SELECT count(*) FROM usage_log WHERE status = 200').pluck().get()).toBe(20);
      db.close();
    },
  );
});
