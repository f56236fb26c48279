// Every rule of credits, key limits, access and rate limits, through the HTTP API with the official openai SDK:
// the right status, the spec's error envelope, and nothing sent upstream when a request is refused.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { usdToNanos } from '../../shared/api/index.js';
import { expectErrorEnvelope } from '../support/error-envelope.js';
import { waitFor } from '../support/wait-for.js';
import { failure, startAccountsHarness, type AccountsHarness } from './harness.js';

let harness: AccountsHarness;
const day = 86_400_000;
/** With the override below, one echo-1 request (11 prompt + 3 completion tokens) costs $0.017 exactly. */
const requestCostNanos = 17_000_000;

beforeEach(async () => {
  harness = await startAccountsHarness();
  await harness.accounts.prices.set('echo-1', { input: 1000, output: 2000 });
});

afterEach(async () => {
  await harness.close();
});

async function stream(client: OpenAI, model = 'up/echo-1') {
  const chunks = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  });
  let text = '';
  let last: OpenAI.Chat.Completions.ChatCompletionChunk | undefined;
  for await (const chunk of chunks) {
    text += chunk.choices[0]?.delta?.content ?? '';
    last = chunk;
  }
  return { text, last: last! };
}

function complete(client: OpenAI, model = 'up/echo-1') {
  return client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: false });
}

function balanceNanos(): number {
  const status = harness.accounts.creditsStatus();
  return usdToNanos(status.balance);
}

describe('credits (402)', () => {
  it('refuses every request with no credits left, in the error shape, before any upstream call', async () => {
    await harness.accounts.setCredits(0);
    const key = await harness.createKey('k');
    const refused = await failure(async () => await stream(harness.client(key.key)));
    expect(refused.status).toBe(402);
    expect(refused.error).toEqual({
      code: 402,
      message: 'No credits left (balance $0.00). Add some with: switchyard credits add USD',
      metadata: { balance: 0 },
    });
    expect((await failure(() => complete(harness.client(key.key)))).status).toBe(402);
    expect(harness.upstream.requests).toEqual([]);
    // The refusals are in the usage log too, at no cost.
    await harness.usage.flush();
    expect((await harness.store.listUsage()).map((row) => [row.status, row.cost])).toEqual([
      [402, 0],
      [402, 0],
    ]);
  });

  it('deducts each request’s cost and refuses once the balance is used up; unlimited when unset', async () => {
    await harness.accounts.setCredits(0.04);
    const client = harness.client((await harness.createKey('k')).key);
    for (let index = 0; index < 3; index++) expect((await stream(client)).text).toBe('Hello!');
    // 0.04 − 3 × 0.017 = −0.011: the third request was admitted while 0.006 was left.
    expect(balanceNanos()).toBe(40_000_000 - 3 * requestCostNanos);
    const calls = harness.chatCalls();
    expect((await failure(() => stream(client))).status).toBe(402);
    expect(harness.chatCalls()).toBe(calls);

    await harness.accounts.addCredits(1);
    expect((await stream(client)).text).toBe('Hello!');
    await harness.accounts.unsetCredits();
    expect((await complete(client)).choices[0]?.message.content).toBe('Hello!');
    expect(harness.accounts.creditsStatus()).toMatchObject({ limited: false, balance: null });
  });

  it('lets parallel streams overspend by at most what is in flight, then refuses everything', async () => {
    const parallel = 12;
    await harness.accounts.setCredits(0.04); // enough for 2.35 requests
    const client = harness.client((await harness.createKey('k')).key);
    // Hold every stream upstream until all of them are in flight: none has cost anything when it is admitted.
    let release!: () => void;
    harness.upstreamOptions.gate = new Promise((resolve) => (release = resolve));
    const streams = Array.from({ length: parallel }, () => stream(client));
    await waitFor(() => harness.chatCalls() >= parallel, { what: 'every stream upstream' });
    release();
    const results = await Promise.all(streams);
    expect(results.every((result) => result.text === 'Hello!')).toBe(true);

    const inFlightNanos = parallel * requestCostNanos;
    const balance = balanceNanos();
    expect(balance).toBe(40_000_000 - inFlightNanos);
    expect(balance).toBeLessThan(0);
    expect(-balance).toBeLessThanOrEqual(inFlightNanos);

    harness.upstreamOptions.gate = undefined;
    const later = await Promise.allSettled(Array.from({ length: 5 }, () => stream(client)));
    expect(later.map((result) => result.status)).toEqual(Array(5).fill('rejected'));
    expect((await failure(() => complete(client))).status).toBe(402);
    expect(harness.chatCalls()).toBe(parallel);
  });
});

describe('per-key spend limits (402)', () => {
  it('refuses a key once its limit is reached, until the next UTC day for a daily limit', async () => {
    const limited = await harness.createKey('limited', { limit: 0.03, limit_reset: 'daily' });
    const forever = await harness.createKey('forever', { limit: 0.03 });
    const free = await harness.createKey('free');
    for (const key of [limited, forever]) {
      const client = harness.client(key.key);
      await stream(client); // 0.017 < 0.03: the next one is admitted
      await complete(client); // 0.034 ≥ 0.03
      const refused = await failure(() => stream(client));
      expect(refused.status).toBe(402);
      expect(refused.error.message).toMatch(/^This API key reached its spend limit of \$0\.03\./);
      expect(refused.error.metadata).toMatchObject({ limit: 0.03, usage: 0.034 });
    }
    expect((await failure(async () => await stream(harness.client(limited.key)))).error.metadata.limit_reset).toBe(
      'daily',
    );
    expect((await stream(harness.client(free.key))).text).toBe('Hello!');

    // Two days on (rows keep the real time, so even a run across midnight stays in an earlier window).
    harness.clock.now += 2 * day;
    expect((await stream(harness.client(limited.key))).text).toBe('Hello!');
    expect((await failure(async () => await stream(harness.client(forever.key)))).status).toBe(402);
  });

  it('applies a raised limit at once', async () => {
    const key = await harness.createKey('k', { limit: 0.01 });
    const client = harness.client(key.key);
    await stream(client);
    expect((await failure(() => stream(client))).status).toBe(402);
    await harness.keys.update(key.id, { limit: 1 });
    expect((await stream(client)).text).toBe('Hello!');
  });
});

describe('access (403)', () => {
  it('refuses a model outside the key’s allow-lists before any upstream call, and lists only allowed models', async () => {
    const key = await harness.createKey('k', { allowed_models: ['up/gpt-4o'], allowed_providers: ['other'] });
    const client = harness.client(key.key);
    const refused = await failure(() => stream(client, 'up/echo-1'));
    expect(refused.status).toBe(403);
    expect(refused.error).toEqual({
      code: 403,
      message: 'This API key may not use the model "up/echo-1".',
      metadata: { model: 'up/echo-1' },
    });
    // A fallback list may not smuggle a model in.
    const smuggled = await failure(() =>
      client.chat.completions.create({
        model: 'up/gpt-4o',
        messages: [{ role: 'user', content: 'hi' }],
        // @ts-expect-error OpenRouter's fallback list
        models: ['up/echo-1'],
      }),
    );
    expect(smuggled.status).toBe(403);
    expect(harness.chatCalls()).toBe(0);

    expect((await stream(client, 'up/gpt-4o')).text).toBe('Hello!');
    expect((await stream(client, 'other/echo-1')).text).toBe('Hello!');
    const listed = (await client.models.list()).data.map((model) => model.id).sort();
    expect(listed).toEqual([
      'other/claude-sonnet-4-20250514',
      'other/echo-1',
      'other/gpt-4o',
      'other/priced-by-upstream',
      'up/gpt-4o',
    ]);
    const everything = (await harness.client((await harness.createKey('all')).key).models.list()).data;
    expect(everything).toHaveLength(8);
  });

  it('lets a key without the management right list only itself and delete only itself', async () => {
    const plain = await harness.createKey('plain');
    const other = await harness.createKey('other', { management: true });
    const remove = (id: string, secret: string) =>
      fetch(`${harness.baseURL}/api-keys/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${secret}` } });

    const listing = await harness.get('/api-keys', plain.key);
    expect(listing.status).toBe(200);
    expect((listing.body as { data: { id: string }[] }).data).toEqual([
      expect.objectContaining({ id: plain.id, name: 'plain', management: false }),
    ]);

    // Another key's id and an id no key has get the same 403, so that ids cannot be probed.
    for (const id of [other.id, '0123456789abcdef']) {
      const refused = await remove(id, plain.key);
      await expectErrorEnvelope(
        refused,
        403,
        'This API key may delete only itself: deleting other keys needs a management key (switchyard keys update ID --management).',
      );
    }
    expect(harness.keys.get(other.id)).toBeDefined();

    // A leaked key can be revoked with nothing but itself.
    const deleted = await remove(plain.id, plain.key);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ data: { id: plain.id, deleted: true } });
    expect((await harness.get('/api-keys', plain.key)).status).toBe(401);
    expect((await harness.get('/key', plain.key)).status).toBe(401);
  });

  it('lets a management key list and delete every key', async () => {
    const manager = await harness.createKey('manager', { management: true });
    const plain = await harness.createKey('plain');
    const victim = await harness.createKey('victim');
    const listing = await harness.get('/api-keys', manager.key);
    expect(listing.status).toBe(200);
    expect((listing.body as { data: { id: string; management: boolean }[] }).data).toEqual([
      expect.objectContaining({ id: manager.id, management: true }),
      expect.objectContaining({ id: plain.id, management: false }),
      expect.objectContaining({ id: victim.id, management: false }),
    ]);
    const remove = (id: string) =>
      fetch(`${harness.baseURL}/api-keys/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${manager.key}` },
      });
    expect((await remove(victim.id)).status).toBe(200);
    expect(harness.keys.get(victim.id)).toBeUndefined();
    expect((await harness.get('/key', victim.key)).status).toBe(401);
    const unknown = await remove('0123456789abcdef');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 404, metadata: {} } });
    // GET /key works for every key.
    expect((await harness.get('/key', plain.key)).status).toBe(200);
  });
});

describe('expired and disabled keys (401)', () => {
  it('refuses an expired key with the spec’s 401 body on every endpoint', async () => {
    const key = await harness.createKey('k', { expires_at: new Date(harness.clock.now + 3_600_000).toISOString() });
    const client = harness.client(key.key);
    expect((await stream(client)).text).toBe('Hello!');
    harness.clock.now += 2 * 3_600_000;
    const refused = await failure(() => stream(client));
    expect(refused.status).toBe(401);
    expect(refused.error.code).toBe(401);
    expect(refused.error.message).toMatch(/^This API key expired at /);
    expect(refused.error.metadata).toEqual({});
    expect((await harness.get('/key', key.key)).status).toBe(401);
    expect((await harness.get('/models', key.key)).status).toBe(401);
  });

  it('refuses a disabled key until it is enabled', async () => {
    const key = await harness.createKey('k', { disabled: true });
    const refused = await failure(async () => await stream(harness.client(key.key)));
    expect(refused).toMatchObject({
      status: 401,
      error: { code: 401, message: 'This API key is disabled.', metadata: {} },
    });
    await harness.keys.update(key.id, { disabled: false });
    expect((await stream(harness.client(key.key))).text).toBe('Hello!');
    expect(harness.chatCalls()).toBe(1);
  });
});

describe('rate limits (429)', () => {
  it('refuses past the requests per minute with Retry-After, and admits again a minute later', async () => {
    const key = await harness.createKey('k', { requests_per_minute: 2 });
    const client = harness.client(key.key);
    await stream(client);
    harness.clock.now += 10_000;
    await complete(client);
    const refused = await failure(() => stream(client));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('50');
    expect(refused.error).toMatchObject({ code: 429, metadata: { requests_per_minute: 2, retry_after_seconds: 50 } });
    expect(harness.chatCalls()).toBe(2);
    // Another key is not affected.
    expect((await stream(harness.client((await harness.createKey('other')).key))).text).toBe('Hello!');
    harness.clock.now += 50_000;
    expect((await stream(client)).text).toBe('Hello!');
  });

  it('refuses once the last minute’s tokens reached the tokens per minute', async () => {
    const key = await harness.createKey('k', { tokens_per_minute: 20 });
    const client = harness.client(key.key);
    await stream(client); // 14 tokens
    await stream(client); // 28 ≥ 20 from now on
    const refused = await failure(() => complete(client));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.error.metadata).toMatchObject({ tokens_per_minute: 20 });
    harness.clock.now += 60_000;
    expect((await complete(client)).choices[0]?.message.content).toBe('Hello!');
  });
});
