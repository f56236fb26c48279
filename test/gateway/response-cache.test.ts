// The response cache through real `switchyard serve` processes, a fake OpenAI upstream on 127.0.0.1 counting its
// calls and the official openai SDK as the client: hits whole and streamed, no-cache and no-store, the opt-in for
// sampled answers, the key scope, hits free of credits and rate limits, the usage rows, expiry, and two instances
// on one PostgreSQL sharing what either stored.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../shared/api/index.js';
import { ResponseCacheSetting } from '../../main/app/response-cache-setting.js';
import { openStore } from '../../main/store/index.js';
import { runCli, startServer, stopServer, type RunningServer } from '../support/cli.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';
import { waitFor } from '../support/wait-for.js';
import { startTeam, type Team } from '../team/team-harness.js';

const providerSecret = 'sk-provider-Cache5mQ2vLw8TzR';
// What the upstream says each answer cost. Without it `up/echo-1` has no price: its answers cost 0 and credits or a
// spend limit would never run out, so a test of hits past them would never see a new question's 402.
const costPerRequest = 0.0021;
let upstream: FakeUpstream;
const servers: RunningServer[] = [];
const dataDirs: string[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream({
    usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14, cost: costPerRequest },
  });
});

afterAll(async () => {
  await Promise.all(servers.map(stopServer));
  await upstream.close();
  for (const dataDir of dataDirs) fs.rmSync(dataDir, { recursive: true, force: true });
});

const env = { SWITCHYARD_SECRET_STORE: 'file', PROVIDER_KEY: providerSecret };

async function cli(dataDir: string, args: string[]): Promise<string> {
  const result = await runCli(args, { env: { ...env, SWITCHYARD_DATA_DIR: dataDir } });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

async function createKey(dataDir: string, name: string, ...rules: string[]) {
  return JSON.parse(await cli(dataDir, ['keys', 'create', '--name', name, '--json', ...rules])) as {
    key: string;
    id: string;
  };
}

/** The command that adds the fake upstream as provider `up`. */
const addUpstream = () => [
  ...'providers add up --kind openai --api-key-env PROVIDER_KEY --base-url'.split(' '),
  upstream.baseUrl,
];

/** A data folder with the fake upstream as provider `up` (alias `fast` for `up/echo-1`). */
async function dataFolder(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-cache-'));
  dataDirs.push(dataDir);
  await cli(dataDir, addUpstream());
  await cli(dataDir, ['models', 'alias', 'fast', 'up/echo-1']);
  return dataDir;
}

async function serve(dataDir: string, ...args: string[]): Promise<RunningServer> {
  const server = await startServer(['--data-dir', dataDir, '--no-ui', ...args], env);
  servers.push(server);
  return server;
}

function client(server: RunningServer, apiKey: string, headers: Record<string, string> = {}): OpenAI {
  return new OpenAI({ baseURL: server.baseUrl, apiKey, maxRetries: 0, defaultHeaders: headers });
}

const question = (text: string, extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) => ({
  model: 'up/echo-1',
  temperature: 0,
  messages: [{ role: 'user' as const, content: text }],
  ...extra,
});

async function ask(openai: OpenAI, body: OpenAI.ChatCompletionCreateParamsNonStreaming) {
  const { data, response } = await openai.chat.completions.create({ ...body, stream: false }).withResponse();
  return {
    text: data.choices[0]?.message.content,
    usage: data.usage,
    cache: response.headers.get('x-switchyard-cache'),
  };
}

async function askStreamed(openai: OpenAI, body: OpenAI.ChatCompletionCreateParamsNonStreaming) {
  const { data: stream, response } = await openai.chat.completions
    .create({ ...body, stream: true, stream_options: { include_usage: true } })
    .withResponse();
  let text = '';
  let usage: OpenAI.CompletionUsage | undefined;
  let finish: string | null = null;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
    if (chunk.usage) usage = chunk.usage;
  }
  return { text, usage, finish, cache: response.headers.get('x-switchyard-cache') };
}

const upstreamCalls = () => upstream.chatRequests().length;

async function usageRows(dataDir: string, count: number): Promise<UsageRecord[]> {
  const store = openStore(dataDir);
  try {
    return await waitFor(
      async () => {
        const rows = await store.listUsage();
        return rows.length >= count ? rows.reverse() : undefined;
      },
      { what: `${count} usage rows` },
    );
  } finally {
    await store.close();
  }
}

describe('the response cache of one serve on SQLite', () => {
  let dataDir: string;
  let server: RunningServer;
  let key: { key: string; id: string };

  beforeAll(async () => {
    dataDir = await dataFolder();
    key = await createKey(dataDir, 'cached');
    server = await serve(dataDir, '--cache-ttl', '60');
  }, 60_000);

  it('answers the second identical request from the cache, whole or streamed, with the same answer', async () => {
    const openai = client(server, key.key);
    const before = upstreamCalls();
    const first = await ask(openai, question('once'));
    const again = await ask(openai, question('once'));
    const streamed = await askStreamed(openai, question('once'));
    expect([first.cache, again.cache, streamed.cache]).toEqual(['miss', 'hit', 'hit']);
    expect(upstreamCalls() - before).toBe(1);
    expect(again.text).toBe(first.text);
    expect(streamed.text).toBe(first.text);
    expect(streamed.finish).toBe('stop');
    expect(streamed.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 3, cost: 0 });
    expect(again.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 3 });
  });

  it('stores a streamed answer and serves it whole; an alias is its own entry', async () => {
    const openai = client(server, key.key);
    const before = upstreamCalls();
    const streamed = await askStreamed(openai, question('streamed first'));
    const whole = await ask(openai, question('streamed first'));
    expect([streamed.cache, whole.cache]).toEqual(['miss', 'hit']);
    expect(whole.text).toBe(streamed.text);
    const byAlias = await ask(openai, question('streamed first', { model: 'fast' }));
    expect(byAlias.cache).toBe('miss');
    expect(upstreamCalls() - before).toBe(2);
  });

  it('caches the protocols translated to chat: a Messages request asked twice reaches the upstream once', async () => {
    const before = upstreamCalls();
    const messages = async () => {
      const response = await fetch(`${server.baseUrl}/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'up/echo-1',
          max_tokens: 50,
          temperature: 0,
          messages: [{ role: 'user', content: 'translated' }],
        }),
      });
      const body = (await response.json()) as { content: { text: string }[] };
      return { cache: response.headers.get('x-switchyard-cache'), text: body.content[0]?.text };
    };
    const first = await messages();
    const again = await messages();
    expect([first.cache, again.cache]).toEqual(['miss', 'hit']);
    expect(again.text).toBe('Hello!');
    expect(upstreamCalls() - before).toBe(1);
  });

  it('skips the lookup on no-cache and the write on no-store', async () => {
    const before = upstreamCalls();
    const noStore = client(server, key.key, { 'cache-control': 'no-store' });
    expect((await ask(noStore, question('not kept'))).cache).toBe('miss');
    expect((await ask(client(server, key.key), question('not kept'))).cache).toBe('miss');
    const noCache = client(server, key.key, { 'cache-control': 'no-cache' });
    expect((await ask(noCache, question('not kept'))).cache).toBe('miss');
    expect(upstreamCalls() - before).toBe(3);
  });

  it('bypasses sampled requests unless the caller forces the cache', async () => {
    const openai = client(server, key.key);
    const before = upstreamCalls();
    const sampled = question('sampled', { temperature: 0.7 });
    expect((await ask(openai, sampled)).cache).toBe('bypass');
    expect((await ask(openai, sampled)).cache).toBe('bypass');
    const unset = { model: 'up/echo-1', messages: [{ role: 'user' as const, content: 'sampled' }] };
    expect((await ask(openai, unset)).cache).toBe('bypass');
    const forced = client(server, key.key, { 'x-switchyard-cache': 'force' });
    expect((await ask(forced, sampled)).cache).toBe('miss');
    expect((await ask(forced, sampled)).cache).toBe('hit');
    expect(upstreamCalls() - before).toBe(4);
  });

  it('keeps answers per key by default: another key asks the upstream', async () => {
    const other = await createKey(dataDir, 'other');
    const before = upstreamCalls();
    await ask(client(server, key.key), question('per key'));
    expect((await ask(client(server, other.key), question('per key'))).cache).toBe('miss');
    expect(upstreamCalls() - before).toBe(2);
  });

  it('serves hits past the rate limit; records them with the saved cost and nothing spent', async () => {
    const ownDir = await dataFolder();
    const limited = await createKey(ownDir, 'limited', '--rpm', '1');
    const own = await serve(ownDir, '--cache-ttl', '60');
    const openai = client(own, limited.key);
    expect((await ask(openai, question('limits'))).cache).toBe('miss');
    // The minute's one request is taken: only hits get through.
    for (let index = 0; index < 3; index++) expect((await ask(openai, question('limits'))).cache).toBe('hit');
    await expect(ask(openai, question('not cached yet'))).rejects.toMatchObject({ status: 429 });
    const rows = (await usageRows(ownDir, 5)).filter((row) => row.status === 200);
    expect(rows.map((row) => row.cache)).toEqual(['miss', 'hit', 'hit', 'hit']);
    expect(rows[0]).toMatchObject({ cost: costPerRequest });
    expect(rows[0]!.saved_cost).toBeUndefined();
    expect(rows[1]).toMatchObject({ cost: 0, saved_cost: costPerRequest, prompt_tokens: 11, completion_tokens: 3 });
  });

  it('serves hits once the credits are spent, while a new question gets its 402', async () => {
    const ownDir = await dataFolder();
    const payer = await createKey(ownDir, 'payer');
    const own = await serve(ownDir, '--cache-ttl', '60');
    // Granted while the gateway runs, by another process: the gateway learns it from the database.
    await cli(ownDir, ['credits', 'set', String(costPerRequest / 2)]);
    const openai = client(own, payer.key);
    expect((await ask(openai, question('paid for'))).cache).toBe('miss');
    // The first answer took more than the balance: it is spent.
    await usageRows(ownDir, 1);
    expect((await ask(openai, question('paid for'))).cache).toBe('hit');
    await expect(ask(openai, question('not paid for'))).rejects.toMatchObject({ status: 402 });
    expect((await ask(openai, question('paid for'))).cache).toBe('hit');
    const credits = JSON.parse(await cli(ownDir, ['credits', 'show', '--json'])) as { used: number };
    expect(credits.used).toBe(costPerRequest);
  });

  it("serves hits past the key's spend limit, while a new question gets its 402", async () => {
    const ownDir = await dataFolder();
    const capped = await createKey(ownDir, 'capped', '--limit', String(costPerRequest));
    const own = await serve(ownDir, '--cache-ttl', '60');
    const openai = client(own, capped.key);
    expect((await ask(openai, question('within the limit'))).cache).toBe('miss');
    await usageRows(ownDir, 1);
    for (let index = 0; index < 3; index++) expect((await ask(openai, question('within the limit'))).cache).toBe('hit');
    await expect(ask(openai, question('past the limit'))).rejects.toMatchObject({ status: 402 });
  });

  it('refuses a hit to a key that may not use the model', async () => {
    const narrow = await createKey(dataDir, 'narrow', '--allow-models', 'up/other');
    const shared = await serve(dataDir, '--cache-ttl', '60', '--cache-scope', 'all');
    await ask(client(shared, key.key), question('ruled'));
    await expect(ask(client(shared, narrow.key), question('ruled'))).rejects.toMatchObject({ status: 403 });
    const other = await createKey(dataDir, 'other in all');
    expect((await ask(client(shared, other.key), question('ruled'))).cache).toBe('hit');
  });

  it('forgets an answer once its time is over', async () => {
    const briefDir = await dataFolder();
    const brief = await createKey(briefDir, 'brief');
    const short = await serve(briefDir, '--cache-ttl', '1');
    const openai = client(short, brief.key);
    expect((await ask(openai, question('brief'))).cache).toBe('miss');
    expect((await ask(openai, question('brief'))).cache).toBe('hit');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await ask(openai, question('brief'))).cache).toBe('miss');
  });

  it('runs with the setting stored with the data (the Gateway screen) unless a serve flag overrides it', async () => {
    const storedDir = await dataFolder();
    const stored = await createKey(storedDir, 'stored');
    const store = openStore(storedDir);
    try {
      await new ResponseCacheSetting(store).save({ ttlSeconds: 60, scope: 'key' });
    } finally {
      await store.close();
    }
    const bySetting = client(await serve(storedDir), stored.key);
    expect((await ask(bySetting, question('stored setting'))).cache).toBe('miss');
    expect((await ask(bySetting, question('stored setting'))).cache).toBe('hit');
    const byFlag = client(await serve(storedDir, '--cache-ttl', '0'), stored.key);
    expect((await ask(byFlag, question('stored setting'))).cache).toBeNull();
  });

  it('sends no cache header and stores nothing when off (the default)', async () => {
    const offDir = await dataFolder();
    const offKey = await createKey(offDir, 'off');
    const off = await serve(offDir);
    const before = upstreamCalls();
    const first = await ask(client(off, offKey.key), question('off'));
    await ask(client(off, offKey.key), question('off'));
    expect(first.cache).toBeNull();
    expect(upstreamCalls() - before).toBe(2);
    const rows = await usageRows(offDir, 2);
    expect(rows.every((row) => row.cache === undefined)).toBe(true);
  });
});

describe('two serve instances on one PostgreSQL', () => {
  let team: Team;
  beforeAll(async () => {
    team = await startTeam({ env: { PROVIDER_KEY: providerSecret }, serveArgs: ['--no-ui', '--cache-ttl', '60'] });
    await team.cli(addUpstream());
  }, 120_000);
  afterAll(async () => team?.close());

  it('share the cache: what one stored, the other answers without the upstream', async () => {
    const { key } = await team.createKey('team');
    const [one, two] = await Promise.all([team.serve(), team.serve()]);
    const before = upstreamCalls();
    expect((await ask(client(one, key), question('shared'))).cache).toBe('miss');
    // The answer is stored after it was sent: the other instance asks once it is in the database.
    await waitFor(async () => (await team.pool.query('SELECT 1 FROM response_cache')).rowCount, {
      what: 'the stored answer',
    });
    const fromOther = await ask(client(two, key), question('shared'));
    expect(fromOther.cache).toBe('hit');
    expect(fromOther.text).toBe('Hello!');
    expect((await askStreamed(client(one, key), question('shared'))).cache).toBe('hit');
    expect(upstreamCalls() - before).toBe(1);
    const { rows } = await team.pool.query<{ key: string; body: string }>('SELECT key, body FROM response_cache');
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.key) && !row.body.includes(key))).toBe(true);
  }, 60_000);

  it('serve hits once the shared credits are spent, while a new question gets its 402 on either', async () => {
    const payer = await team.createKey('payer');
    const [one, two] = await Promise.all([team.serve(), team.serve()]);
    await team.cli(['credits', 'set', String(costPerRequest / 2)]);
    expect((await ask(client(one, payer.key), question('paid for by the team'))).cache).toBe('miss');
    await waitFor(
      async () =>
        (await team.pool.query('SELECT 1 FROM usage_log WHERE key_id = $1', [payer.id])).rowCount || undefined,
      { what: 'the usage row' },
    );
    for (const instance of [one, two]) {
      // The other instance learns the spend through the database's notification, a moment later.
      const refusal = await waitFor(
        async () => {
          const failure = await ask(client(instance, payer.key), question('not paid for')).then(
            () => undefined,
            (error: unknown) => error as { status?: number },
          );
          return failure?.status === 402 ? failure : undefined;
        },
        { what: 'the 402' },
      );
      expect(refusal.status).toBe(402);
      expect((await ask(client(instance, payer.key), question('paid for by the team'))).cache).toBe('hit');
    }
  }, 60_000);
});
