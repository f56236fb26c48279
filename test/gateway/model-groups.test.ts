// Model groups through the HTTP API of a real app (SQLite file, accounts, usage log) in front of three fake OpenAI
// upstreams on 127.0.0.1, one per provider: each strategy's choice, fallback within a group, OpenRouter's `provider`
// object over a group's targets, the key's allowed models per target, prefix stickiness, and the usage row.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AliasGroup } from '../../shared/api/index.js';
import { createApp, type App } from '../../main/app/index.js';
import { openStore } from '../../main/store/index.js';
import { collect } from '../providers/provider-harness.js';
import { answer, fail, FakeOpenAI, type Step } from '../support/fake-openai.js';

const providerIds = ['a', 'b', 'c'] as const;
type ProviderId = (typeof providerIds)[number];

let dataDir: string;
let app: App;
let baseURL: string;
let upstreams: Record<ProviderId, FakeOpenAI>;
/** What each upstream does with the next chat request; an answer naming the provider by default. */
let behaviour: Record<ProviderId, Step>;

function answering(id: ProviderId, delayMs = 0): Step {
  return async (request) => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return answer(`from ${id}`)(request);
  };
}

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-groups-'));
  behaviour = { a: answering('a'), b: answering('b'), c: answering('c') };
  upstreams = {} as Record<ProviderId, FakeOpenAI>;
  const store = openStore(dataDir);
  for (const id of providerIds) {
    const upstream = new FakeOpenAI({ models: ['m'], fallback: (request) => behaviour[id](request) });
    await upstream.start();
    upstreams[id] = upstream;
    await store.upsertProvider({
      id,
      kind: 'openai',
      base_url: upstream.baseUrl,
      has_api_key: false,
      created_at: '2026-01-01T00:00:00.000Z',
    });
  }
  await store.close();
  app = createApp({
    dataDir,
    secretStoreMode: 'file',
    localProviders: false,
    env: {},
    logger: pino({ level: 'silent' }),
  });
  baseURL = await app.createGateway({ mcpHub: false, retry: { maxRetries: 0 } }).listen({ host: '127.0.0.1', port: 0 });
});

afterEach(async () => {
  await app.close();
  for (const upstream of Object.values(upstreams)) await upstream.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function group(
  name: string,
  targets: string[],
  strategy: AliasGroup['strategy'] = 'ordered',
  weights?: number[],
) {
  await app.aliases.set(name, { targets, strategy, weights: weights ?? null });
}

async function client(rules: Parameters<App['keys']['create']>[1] = {}): Promise<OpenAI> {
  const { key } = await app.keys.create('k', rules);
  return new OpenAI({ baseURL, apiKey: key, maxRetries: 0 });
}

function counts(): Record<ProviderId, number> {
  return {
    a: upstreams.a.chatRequests().length,
    b: upstreams.b.chatRequests().length,
    c: upstreams.c.chatRequests().length,
  };
}

let asked = 0;

/** A request of its own conversation (stickiness aside) unless `body` brings the messages. */
async function ask(openai: OpenAI, body: Record<string, unknown> = {}, content = `hi ${asked++}`) {
  return openai.chat.completions.create({
    model: 'team',
    messages: [{ role: 'user', content }],
    stream: false,
    ...body,
  } as OpenAI.ChatCompletionCreateParamsNonStreaming);
}

async function usageModels(): Promise<string[]> {
  await app.usage.flush();
  return (await app.store.listUsage()).map((row) => row.model).reverse();
}

describe('a model group', () => {
  it('ordered: the first target answers; a failing one falls back to the next, and the usage row names it', async () => {
    await group('team', ['a/m', 'b/m', 'c/m']);
    const openai = await client();
    expect((await ask(openai)).choices[0]?.message.content).toBe('from a');
    behaviour.a = fail(503);
    const answered = await ask(openai);
    expect(answered.choices[0]?.message.content).toBe('from b');
    expect(answered.model).toBe('b/m');
    expect(counts()).toEqual({ a: 2, b: 1, c: 0 });
    expect(await usageModels()).toEqual(['a/m', 'b/m']);
  });

  it('streams from the target its strategy picks', async () => {
    await group('team', ['b/m', 'a/m']);
    const openai = await client();
    const stream = await ask(openai, { stream: true });
    const text = (await collect(stream as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>))
      .map((part) => part.choices[0]?.delta?.content ?? '')
      .join('');
    expect(text).toBe('from b');
  });

  it('weighted: spreads requests by weight (3:1 within statistical bounds over 200 requests)', async () => {
    await group('team', ['a/m', 'b/m'], 'weighted', [3, 1]);
    const openai = await client();
    for (let sent = 0; sent < 200; sent += 20) {
      await Promise.all(Array.from({ length: 20 }, () => ask(openai)));
    }
    const { a, b } = counts();
    expect(a + b).toBe(200);
    // Binomial(200, 0.75): mean 150, standard deviation 6.1; ±5 deviations.
    expect(a).toBeGreaterThan(119);
    expect(a).toBeLessThan(181);
  });

  it('least-busy: a request goes to the target with fewer in flight', async () => {
    await group('team', ['a/m', 'b/m'], 'least-busy');
    const openai = await client();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    behaviour.a = async (request) => {
      await held;
      return answer('from a')(request);
    };
    const first = ask(openai);
    try {
      await waitUntil(() => upstreams.a.chatRequests().length === 1);
      expect((await ask(openai)).choices[0]?.message.content).toBe('from b');
    } finally {
      release();
    }
    expect((await first).choices[0]?.message.content).toBe('from a');
    // Both idle again: the group's order decides.
    expect((await ask(openai)).choices[0]?.message.content).toBe('from a');
  });

  it('latency: after a slow answer from one and a fast one from the other, the fast one goes first', async () => {
    await group('team', ['a/m', 'b/m'], 'latency');
    const openai = await client();
    behaviour.a = answering('a', 300);
    expect((await ask(openai)).choices[0]?.message.content).toBe('from a');
    // `a` has a time to first token, `b` none yet (unknown goes last): ask `b` once through a group that puts it first.
    await group('other', ['b/m', 'a/m'], 'ordered');
    await ask(openai, { model: 'other' });
    expect((await ask(openai)).choices[0]?.message.content).toBe('from b');
    behaviour.a = answering('a');
    behaviour.b = answering('b', 600);
    // Slow answers move `b`'s recent average past `a`'s.
    for (let round = 0; round < 7; round++) await ask(openai, { model: 'other' });
    expect((await ask(openai)).choices[0]?.message.content).toBe('from a');
  });

  it('cost: the cheapest priced target first, unpriced last', async () => {
    await app.accounts.prices.set('a/m', { input: 5, output: 15 });
    await app.accounts.prices.set('b/m', { input: 0.5, output: 1.5 });
    await group('team', ['c/m', 'a/m', 'b/m'], 'cost');
    const openai = await client();
    expect((await ask(openai)).choices[0]?.message.content).toBe('from b');
    behaviour.b = fail(500);
    expect((await ask(openai)).choices[0]?.message.content).toBe('from a');
    behaviour.a = fail(429);
    expect((await ask(openai)).choices[0]?.message.content).toBe('from c');
  });

  it('works as an entry of `models`, each entry expanded in turn', async () => {
    await group('first', ['a/m', 'b/m']);
    await group('second', ['c/m', 'a/m']);
    behaviour.a = fail(500);
    behaviour.b = fail(500);
    const openai = await client();
    const answered = await ask(openai, { model: 'first', models: ['second'] });
    expect(answered.choices[0]?.message.content).toBe('from c');
    expect(counts()).toEqual({ a: 1, b: 1, c: 1 });
  });
});

describe("OpenRouter's provider object over a group", () => {
  beforeEach(async () => {
    await group('team', ['a/m', 'b/m', 'c/m']);
  });

  it('order, only and ignore choose among the targets by provider id', async () => {
    const openai = await client();
    expect((await ask(openai, { provider: { order: ['c', 'b'] } })).choices[0]?.message.content).toBe('from c');
    expect((await ask(openai, { provider: { only: ['b'] } })).choices[0]?.message.content).toBe('from b');
    expect((await ask(openai, { provider: { ignore: ['a'] } })).choices[0]?.message.content).toBe('from b');
    behaviour.b = fail(500);
    // `only` leaves nothing to fall back to.
    const refused = await ask(openai, { provider: { only: ['b'] } }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 502 });
  });

  it('allow_fallbacks: false tries only the first choice', async () => {
    behaviour.a = fail(503);
    const openai = await client();
    expect((await ask(openai)).choices[0]?.message.content).toBe('from b');
    const refused = await ask(openai, { provider: { allow_fallbacks: false } }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 503 });
    expect(counts()).toEqual({ a: 2, b: 1, c: 0 });
  });

  it('sort: price and max_price use the known prices', async () => {
    await app.accounts.prices.set('a/m', { input: 5, output: 15 });
    await app.accounts.prices.set('b/m', { input: 3, output: 4 });
    await app.accounts.prices.set('c/m', { input: 1, output: 20 });
    const openai = await client();
    expect((await ask(openai, { provider: { sort: 'price' } })).choices[0]?.message.content).toBe('from b');
    expect((await ask(openai, { provider: { max_price: { completion: 10 } } })).choices[0]?.message.content).toBe(
      'from b',
    );
    expect((await ask(openai, { provider: { max_price: { prompt: 2 } } })).choices[0]?.message.content).toBe('from c');
  });

  it('refuses a malformed provider object with a 400', async () => {
    const openai = await client();
    const refused = await ask(openai, { provider: { sort: 'fastest' } }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400 });
  });
});

describe("a key's allowed models", () => {
  it('apply to each target: the others are never tried; none left is a 403 naming the group', async () => {
    await group('team', ['a/m', 'b/m', 'c/m']);
    const onlyB = await client({ allowed_models: ['b/m'] });
    expect((await ask(onlyB)).choices[0]?.message.content).toBe('from b');
    behaviour.b = fail(500);
    await expect(ask(onlyB)).rejects.toMatchObject({ status: 502 });
    expect(counts()).toEqual({ a: 0, b: 2, c: 0 });

    const none = await client({ allowed_models: ['x/m'] });
    const refused = await ask(none).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 403 });
    expect(String((refused as Error).message)).toMatch(/none of the targets of the model group "team"/);
  });
});

describe('prefix stickiness', () => {
  it('a conversation stays on the target that answered its first turn while that target answers', async () => {
    await group('team', ['a/m', 'b/m'], 'weighted', [1, 1]);
    const openai = await client();
    const system = { role: 'system', content: 'You are terse.' } as const;
    for (const conversation of ['one', 'two', 'three', 'four', 'five', 'six']) {
      const first = await ask(openai, { messages: [system, { role: 'user', content: conversation }] });
      const target = first.model;
      for (let turn = 0; turn < 4; turn++) {
        const next = await ask(openai, {
          messages: [
            system,
            { role: 'user', content: conversation },
            { role: 'assistant', content: 'ok' },
            { role: 'user', content: `turn ${turn}` },
          ],
        });
        expect(next.model).toBe(target);
      }
    }
    // When its target fails, the conversation moves, and stays where it moved.
    const first = await ask(openai, { messages: [system, { role: 'user', content: 'seven' }] });
    const other = first.model === 'a/m' ? 'b' : 'a';
    behaviour[first.model[0] as ProviderId] = fail(503);
    const moved = await ask(openai, {
      messages: [system, { role: 'user', content: 'seven' }, { role: 'user', content: 'again' }],
    });
    expect(moved.model).toBe(`${other}/m`);
    behaviour[first.model[0] as ProviderId] = answering(first.model[0] as ProviderId);
    const after = await ask(openai, {
      messages: [system, { role: 'user', content: 'seven' }, { role: 'user', content: 'more' }],
    });
    expect(after.model).toBe(`${other}/m`);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries++) {
    if (tries > 500) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
