// The product as a user meets it: the `switchyard` CLI configures a provider and a key, `switchyard serve` runs
// the gateway in its own process, and the official `openai` SDK talks to it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpServe, runCli, startServer, stopServer, type RunningServer } from '../support/cli.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';

const upstreamSecret = 'sk-upstream-secret-4b1d9c7e';
let dataDir: string;
let env: NodeJS.ProcessEnv;
const servers: RunningServer[] = [];
const upstreams: FakeUpstream[] = [];

async function upstream(options: Parameters<typeof startFakeUpstream>[0] = {}) {
  const started = await startFakeUpstream(options);
  upstreams.push(started);
  return started;
}

async function serve(): Promise<RunningServer> {
  const server = await startServer(['--data-dir', dataDir], env);
  servers.push(server);
  return server;
}

async function cli(args: string[], input?: string) {
  const result = await runCli([...args, '--data-dir', dataDir], { env, input });
  return result;
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-e2e-'));
  env = { SWITCHYARD_SECRET_STORE: 'file', UP_KEY: upstreamSecret };
});

afterEach(async () => {
  for (const server of servers.splice(0)) await stopServer(server);
});

afterAll(() => cleanUpServe(dataDir, [], upstreams));

describe('switchyard CLI + serve + openai SDK', () => {
  it('streams and non-streams through a provider added with `providers add`, and a deleted key gets 401 at once', async () => {
    const fake = await upstream();
    const added = await cli([
      'providers',
      'add',
      'up',
      '--kind',
      'openai',
      '--base-url',
      fake.baseUrl,
      '--api-key-env',
      'UP_KEY',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const created = await cli(['keys', 'create', '--name', 'e2e', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; name: string; key: string; created_at: string };
    expect(Object.keys(key).sort()).toEqual(['created_at', 'id', 'key', 'name']);

    const server = await serve();
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: key.key, maxRetries: 0 });

    const stream = await client.chat.completions.create({
      model: 'up/echo-1',
      messages: [{ role: 'user', content: 'Say hello' }],
      stream: true,
    });
    let text = '';
    const ids = new Set<string>();
    let last: OpenAI.Chat.Completions.ChatCompletionChunk | undefined;
    for await (const part of stream) {
      ids.add(part.id);
      text += part.choices[0]?.delta?.content ?? '';
      last = part;
    }
    expect(text).toBe('Hello!');
    expect(ids.size).toBe(1);
    expect(last?.choices[0]?.finish_reason).toBe('stop');
    expect(last?.usage?.prompt_tokens).toBe(11);

    const completion = await client.chat.completions.create(
      { model: 'up/echo-1', messages: [{ role: 'user', content: 'Say hello' }], stream: false },
      { headers: { 'X-Title': 'E2E Suite', 'HTTP-Referer': 'https://e2e.example' } },
    );
    expect(completion.choices[0]?.message.content).toBe('Hello!');
    expect(completion.usage?.completion_tokens).toBe(3);

    const chatCalls = fake.chatRequests();
    expect(chatCalls.length).toBe(2);
    for (const call of chatCalls) {
      expect(call.headers.authorization).toBe(`Bearer ${upstreamSecret}`);
      expect(call.body?.model).toBe('echo-1');
    }

    // Listings never show secrets.
    const listed = await cli(['keys', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(key.key);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: key.id, name: 'e2e' })]);
    const providers = await cli(['providers', 'list', '--json']);
    expect(providers.stdout).not.toContain(upstreamSecret);
    expect(JSON.parse(providers.stdout)).toEqual([
      expect.objectContaining({ id: 'up', kind: 'openai', has_api_key: true }),
    ]);

    // Deleting the key from another process kills it for the running gateway at the very next request.
    const deleted = await cli(['keys', 'delete', key.id]);
    expect(deleted.code, deleted.stderr).toBe(0);
    const rejected = await fetch(`${server.baseUrl}/models`, { headers: { authorization: `Bearer ${key.key}` } });
    expect(rejected.status).toBe(401);
    const body = (await rejected.json()) as { error: { code: number; message: string; metadata: object } };
    expect(body.error.code).toBe(401);
    expect(body.error.metadata).toEqual({});

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // Secrets are nowhere in clear: not in the database, not in what the server logged.
    const databaseBytes = fs.readFileSync(path.join(dataDir, 'switchyard.db')).toString('latin1');
    const walPath = path.join(dataDir, 'switchyard.db-wal');
    const walBytes = fs.existsSync(walPath) ? fs.readFileSync(walPath).toString('latin1') : '';
    for (const secret of [key.key, upstreamSecret]) {
      expect(databaseBytes + walBytes).not.toContain(secret);
      expect(server.stderr()).not.toContain(secret);
    }
    expect(fs.statSync(path.join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);

    // The usage log has both requests, with the app headers of the second.
    const database = new Database(path.join(dataDir, 'switchyard.db'), { readonly: true });
    try {
      const rows = database.prepare('SELECT * FROM usage_log ORDER BY created_at').all() as Array<
        Record<string, unknown>
      >;
      expect(rows.map((row) => row.finish_reason)).toEqual(['stop', 'stop']);
      expect(rows[1]).toMatchObject({
        app_title: 'E2E Suite',
        app_referer: 'https://e2e.example',
        model: 'up/echo-1',
        key_id: key.id,
      });
    } finally {
      database.close();
    }
  });

  it('SIGTERM lets an in-flight stream finish, then exits cleanly with a consistent database', async () => {
    const fake = await upstream({ pieces: Array.from({ length: 10 }, (_, index) => `${index} `), pieceDelayMs: 80 });
    expect(
      (await cli(['providers', 'add', 'slow', '--kind', 'openai', '--base-url', fake.baseUrl, '--no-api-key'])).code,
    ).toBe(0);
    const key = (await cli(['keys', 'create', '--name', 'shutdown'])).stdout.trim();
    const server = await serve();
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: key, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'slow/echo-1',
      messages: [{ role: 'user', content: 'count' }],
      stream: true,
    });
    let text = '';
    let finish: string | null | undefined;
    let signalled = false;
    for await (const part of stream) {
      text += part.choices[0]?.delta?.content ?? '';
      finish = part.choices[0]?.finish_reason ?? finish;
      if (!signalled && text.length > 0) {
        signalled = true;
        server.child.kill('SIGTERM');
      }
    }
    expect(signalled).toBe(true);
    expect(text).toBe('0 1 2 3 4 5 6 7 8 9 ');
    expect(finish).toBe('stop');
    expect(await server.exited).toBe(0);
    expect(fake.requests.some((request) => request.headers.authorization !== undefined)).toBe(false);

    const database = new Database(path.join(dataDir, 'switchyard.db'));
    try {
      expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      const row = database
        .prepare("SELECT finish_reason, completion_tokens FROM usage_log WHERE model = 'slow/echo-1'")
        .get();
      expect(row).toEqual({ finish_reason: 'stop', completion_tokens: 10 });
    } finally {
      database.close();
    }
  });

  it('reads a provider key from standard input and reports bad input clearly', async () => {
    const fromStdin = await cli(
      ['providers', 'add', 'piped', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1'],
      'sk-piped-secret\n',
    );
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(fromStdin.stdout + fromStdin.stderr).not.toContain('sk-piped-secret');
    const secrets = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as unknown;
    expect(JSON.stringify(secrets)).toContain('sk-piped-secret');

    const badKind = await cli([
      'providers',
      'add',
      'x',
      '--kind',
      'cohere',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--no-api-key',
    ]);
    expect(badKind.code).not.toBe(0);
    expect(badKind.stderr).toMatch(/cohere/);
    const badUrl = await cli(['providers', 'add', 'x', '--kind', 'openai', '--base-url', 'not a url', '--no-api-key']);
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toMatch(/base URL/);
    const badId = await cli([
      'providers',
      'add',
      'Bad/Id',
      '--kind',
      'openai',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--no-api-key',
    ]);
    expect(badId.code).toBe(1);
    expect(badId.stderr).toMatch(/provider id/);
    const unknownKey = await cli(['keys', 'delete', 'nope']);
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toMatch(/No key with id "nope"/);
    const removed = await cli(['providers', 'remove', 'piped']);
    expect(removed.code).toBe(0);
    expect(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).not.toContain('sk-piped-secret');
  });

  it('lets several processes create keys on one data dir at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, index) => cli(['keys', 'create', '--name', `parallel-${index}`, '--json'])),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const listed = JSON.parse((await cli(['keys', 'list', '--json'])).stdout) as Array<{ name: string }>;
    const names = listed.map((entry) => entry.name).filter((name) => name.startsWith('parallel-'));
    expect(names.sort()).toEqual(['parallel-0', 'parallel-1', 'parallel-2', 'parallel-3', 'parallel-4']);
  });

  it('stores a provider’s own timeouts from `providers add` flags and refuses a bad one with a clear message', async () => {
    const added = await cli([
      'providers',
      'add',
      'slowlocal',
      '--kind',
      'openai',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--no-api-key',
      '--stream-headers-timeout',
      '900',
      '--idle-timeout',
      '30',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const listed = await cli(['providers', 'list', '--json']);
    const providers = JSON.parse(listed.stdout) as { id: string; timeouts?: unknown }[];
    expect(providers.find((provider) => provider.id === 'slowlocal')?.timeouts).toEqual({
      stream_headers: 900,
      idle: 30,
    });

    const refused = await cli([
      'providers',
      'add',
      'bad',
      '--kind',
      'openai',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--no-api-key',
      '--idle-timeout',
      '0',
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("option '--idle-timeout <seconds>' argument '0' is invalid");
  });
});
