// OpenRouter's own TypeScript SDK (`@openrouter/sdk`, which validates every response against its zod schemas)
// pointed at the gateway: chat (streamed and not), the model catalogue, the calling key, credits, generations and
// key management all parse, under both bases. The gateway runs over the real accounts stack in front of a fake
// OpenAI-compatible upstream.

import { OpenRouter } from '@openrouter/sdk';
import type { ChatResult } from '@openrouter/sdk/models';
import { OpenRouterError } from '@openrouter/sdk/models/errors';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useHarness } from '../support/use-harness.js';
import { openAIBaseUrlOf } from '../../main/gateway/index.js';
import { startAccountsHarness, type AccountsHarness } from '../accounts/harness.js';
import { callerSecret, startHarness } from '../gateway/harness.js';
import { jsonReply } from '../support/recording-server.js';

let harness: AccountsHarness;

beforeEach(async () => {
  harness = await startAccountsHarness();
});

afterEach(async () => {
  await harness.close();
});

const bases = [
  ['/api/v1', (baseURL: string) => baseURL],
  ['/v1', openAIBaseUrlOf],
] as const;

function sdk(secret: string, serverURL = harness.baseURL): OpenRouter {
  return new OpenRouter({ apiKey: secret, serverURL, retryConfig: { strategy: 'none' } });
}

/** How an SDK call failed: its status and our error envelope. */
async function failure(call: () => Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof OpenRouterError)) throw error;
    return { status: error.statusCode, body: JSON.parse(error.body) as unknown };
  }
  throw new Error('expected the call to fail');
}

const hello = [{ role: 'user' as const, content: 'Hello' }];

/** chat.send() with `stream: false`: the SDK's parsed whole answer. */
async function ask(client: OpenRouter, model: string): Promise<ChatResult> {
  const answer = await client.chat.send({ chatRequest: { model, messages: hello, stream: false } });
  if (Symbol.asyncIterator in answer) throw new Error('expected one JSON answer, got a stream');
  return answer;
}

/** chat.send() with `stream: true`: the text of the parsed chunks. */
async function streamedText(client: OpenRouter, model: string): Promise<string> {
  const stream = await client.chat.send({ chatRequest: { model, messages: hello, stream: true } });
  if (!(Symbol.asyncIterator in stream)) throw new Error('expected a stream, got one JSON answer');
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

describe.each(bases)('@openrouter/sdk at %s', (base, urlOf) => {
  it('chat.send: a whole answer and a stream both parse', async () => {
    const client = sdk((await harness.createKey('chat')).key, urlOf(harness.baseURL));
    // A whole answer without the upstream's system_fingerprint takes OpenAI's shape on /v1 (the field left out),
    // which the SDK's schema (the field required, null allowed) refuses: the SDK's base is /api/v1.
    if (base === '/api/v1') {
      const whole = await ask(client, 'up/echo-1');
      expect(whole).toMatchObject({
        object: 'chat.completion',
        model: 'up/echo-1',
        systemFingerprint: null,
        choices: [{ finishReason: 'stop', message: { role: 'assistant', content: 'Hello!' } }],
        usage: { promptTokens: 11, completionTokens: 3, totalTokens: 14 },
      });
    }

    expect(await streamedText(client, 'up/echo-1')).toBe('Hello!');
  });

  it('models.list, get, count, listForUser and endpoints.list parse, with prices from the price book', async () => {
    const secret = (await harness.createKey('models')).key;
    const client = sdk(secret, urlOf(harness.baseURL));
    const page = await client.models.list();
    const ids = page.result.data.map((model) => model.id);
    expect(ids).toEqual(expect.arrayContaining(['up/gpt-4o', 'up/echo-1', 'other/gpt-4o']));
    expect(page.result.totalCount).toBe(ids.length);

    const gpt = page.result.data.find((model) => model.id === 'up/gpt-4o')!;
    expect(gpt).toMatchObject({
      canonicalSlug: 'up/gpt-4o',
      name: 'gpt-4o',
      contextLength: null,
      architecture: { modality: 'text->text', inputModalities: ['text'], outputModalities: ['text'], tokenizer: 'GPT' },
      pricing: { prompt: '0.0000025', completion: '0.00001', inputCacheRead: '0.00000125' },
      topProvider: { isModerated: false },
      perRequestLimits: null,
    });
    expect(gpt.supportedParameters).toEqual(expect.arrayContaining(['tools', 'response_format', 'reasoning']));
    // No price known: OpenRouter's "-1", never a "0" that looks free.
    const echo = page.result.data.find((model) => model.id === 'up/echo-1')!;
    expect(echo.pricing).toEqual({ prompt: '-1', completion: '-1' });

    expect((await client.models.get({ author: 'up', slug: 'gpt-4o' })).data).toMatchObject({ id: 'up/gpt-4o' });
    expect((await client.models.count()).data.count).toBe(ids.length);
    const mine = await client.models.listForUser({ bearer: secret });
    expect(mine.result.data.map((model) => model.id)).toEqual(ids);

    const endpoints = await client.endpoints.list({ author: 'up', slug: 'gpt-4o' });
    expect(endpoints.data).toMatchObject({ id: 'up/gpt-4o', endpoints: [{ providerName: 'up', contextLength: 0 }] });
  });

  it('key, credits and generations parse', async () => {
    const secret = (await harness.createKey('reporting', { limit: 2, limit_reset: 'daily', requests_per_minute: 30 }))
      .key;
    const client = sdk(secret, urlOf(harness.baseURL));
    // The generation is asked at the SDK's own base (a whole answer on /v1 takes OpenAI's shape); it is read at both.
    const answer = await ask(sdk(secret), 'up/gpt-4o');

    const key = (await client.apiKeys.getCurrentKeyMetadata()).data;
    expect(key).toMatchObject({
      label: expect.stringContaining('sk-') as unknown,
      limit: 2,
      limitReset: 'daily',
      isManagementKey: false,
      rateLimit: { requests: 30, interval: '60s' },
    });
    expect(key.usage).toBeGreaterThan(0);

    const credits = (await client.credits.getCredits()).data;
    expect(credits).toEqual({ totalCredits: 1_000_000_000, totalUsage: key.usage });

    const generation = (await client.generations.getGeneration({ id: answer.id })).data;
    expect(generation).toMatchObject({
      id: answer.id,
      model: 'up/gpt-4o',
      providerName: 'up',
      streamed: false,
      tokensPrompt: 11,
      tokensCompletion: 3,
      totalCost: key.usage,
    });
  });
});

describe('the account endpoints as OpenRouter spells them', () => {
  it('/auth/key is /key by its old name', async () => {
    const secret = (await harness.createKey('old name')).key;
    const current = await harness.get('/key', secret);
    const old = await harness.get('/auth/key', secret);
    expect(old.status).toBe(200);
    expect(old.body).toEqual(current.body);
  });

  it('/credits with a balance set reports it, and says the account is no longer unlimited', async () => {
    const secret = (await harness.createKey('credits')).key;
    expect((await harness.get('/credits', secret)).body).toEqual({
      data: { total_credits: 1_000_000_000, total_usage: 0, unlimited: true },
    });
    await harness.accounts.setCredits(5);
    expect((await sdk(secret).credits.getCredits()).data).toEqual({ totalCredits: 5, totalUsage: 0 });
    expect((await harness.get('/credits', secret)).body).toEqual({
      data: { total_credits: 5, total_usage: 0, unlimited: false },
    });
  });

  it('a generation of a model without a price costs -1 and is marked unpriced, not $0', async () => {
    const client = sdk((await harness.createKey('unpriced')).key);
    const answer = await ask(client, 'up/echo-1');
    const generation = (await client.generations.getGeneration({ id: answer.id })).data;
    expect(generation).toMatchObject({ totalCost: -1, usage: -1 });
    expect(
      (await harness.get(`/generation?id=${answer.id}`, (await harness.createKey('m', { management: true })).key)).body,
    ).toMatchObject({ data: { total_cost: -1, unpriced: true } });
  });
});

describe('key management at /keys', () => {
  it('a management key lists, creates, reads, updates and deletes keys through the SDK', async () => {
    const manager = sdk((await harness.createKey('manager', { management: true })).key);

    const created = await manager.apiKeys.create({
      requestBody: { name: 'ci', limit: 10, limitReset: 'weekly', expiresAt: new Date('2099-01-01T00:00:00Z') },
    });
    expect(created.key).toMatch(/^sk-/);
    expect(created.data).toMatchObject({ name: 'ci', limit: 10, limitReset: 'weekly', disabled: false, usage: 0 });
    const hash = created.data.hash;

    // The new secret works, and has no management right of its own.
    const newcomer = sdk(created.key);
    expect((await newcomer.apiKeys.getCurrentKeyMetadata()).data).toMatchObject({ isManagementKey: false });

    expect((await manager.apiKeys.get({ hash })).data).toMatchObject({ hash, name: 'ci' });
    const listed = await manager.apiKeys.list();
    expect(listed.data.map((key) => key.name)).toEqual(['manager', 'ci']);

    const updated = await manager.apiKeys.update({
      hash,
      requestBody: { name: 'ci-renamed', limit: null, limitReset: null, disabled: true },
    });
    expect(updated.data).toMatchObject({ hash, name: 'ci-renamed', limit: null, limitReset: null, disabled: true });
    // Disabled keys are left out of the list unless asked for.
    expect((await manager.apiKeys.list()).data.map((key) => key.hash)).not.toContain(hash);
    expect((await manager.apiKeys.list({ includeDisabled: true })).data.map((key) => key.hash)).toContain(hash);

    expect(await manager.apiKeys.delete({ hash })).toEqual({ deleted: true });
    expect((await failure(() => manager.apiKeys.get({ hash }))).status).toBe(404);
    expect((await failure(() => newcomer.apiKeys.getCurrentKeyMetadata())).status).toBe(401);
  });

  it('any other key gets 403 in the error envelope, and /api-keys keeps the specification’s shape', async () => {
    const plain = await harness.createKey('plain', { management: false });
    const client = sdk(plain.key);
    for (const call of [
      () => client.apiKeys.list(),
      async () => await client.apiKeys.get({ hash: plain.id }),
      () => client.apiKeys.create({ requestBody: { name: 'sneaky' } }),
      async () => await client.apiKeys.update({ hash: plain.id, requestBody: { name: 'x' } }),
      async () => await client.apiKeys.delete({ hash: plain.id }),
    ]) {
      const failed = await failure(call);
      expect(failed.status).toBe(403);
      expect(failed.body).toMatchObject({ error: { code: 403, message: expect.stringContaining('management key') } });
    }
    expect(harness.keys.list().map((key) => key.name)).toEqual(['plain']);

    const apiKeys = await harness.get('/api-keys', plain.key);
    expect(apiKeys.body).toEqual({ data: [harness.keys.get(plain.id)] });
  });

  it('a key body with a field no key has, or a bad value, is a 400 naming it', async () => {
    const secret = (await harness.createKey('manager', { management: true })).key;
    const post = (body: unknown) =>
      fetch(`${harness.baseURL}/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const unknownField = await post({ name: 'x', workspace_id: 'w1' });
    expect(unknownField.status).toBe(400);
    expect(await unknownField.json()).toMatchObject({
      error: { code: 400, message: expect.stringContaining('"workspace_id"') },
    });
    const badLimit = await post({ name: 'x', limit: -5 });
    expect(badLimit.status).toBe(400);
    expect(await badLimit.json()).toMatchObject({ error: { message: expect.stringContaining('limit') } });
    expect((await post({ limit: 5 })).status).toBe(400);
  });
});

describe('models whose ids hold more slashes (OpenRouter as a provider)', () => {
  it('GET /models/{id}, /model/{author}/{slug} and the endpoints find them', async () => {
    const plain = await startHarness();
    try {
      plain.upstream.models = ['anthropic/claude-sonnet-4', 'gpt-test'];
      const client = sdk(callerSecret, plain.baseURL);
      const id = 'fake/anthropic/claude-sonnet-4';
      expect((await client.models.get({ author: 'fake', slug: 'anthropic/claude-sonnet-4' })).data).toMatchObject({
        id,
        architecture: { tokenizer: 'Claude' },
      });
      const endpoints = await client.endpoints.list({ author: 'fake', slug: 'anthropic/claude-sonnet-4' });
      expect(endpoints.data.endpoints).toMatchObject([{ modelId: id, providerName: 'fake' }]);

      const direct = await fetch(`${plain.baseURL}/models/${id}`, {
        headers: { authorization: `Bearer ${callerSecret}` },
      });
      expect(await direct.json()).toMatchObject({ data: { id, links: { details: `/api/v1/models/${id}/endpoints` } } });
      const missing = await fetch(`${plain.baseURL}/models/fake/nope`, {
        headers: { authorization: `Bearer ${callerSecret}` },
      });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({
        error: { code: 404, message: expect.stringContaining('fake/nope') },
      });
    } finally {
      await plain.close();
    }
  });

  it('?supported_parameters= keeps the models that support them all; pages follow offset and limit', async () => {
    const secret = (await harness.createKey('filters')).key;
    const all = (await harness.get('/models', secret)).body as { data: { id: string }[]; total_count: number };
    const withTools = await harness.get('/models?supported_parameters=tools,response_format', secret);
    expect((withTools.body as { total_count: number }).total_count).toBe(all.total_count);
    const none = await harness.get('/models?supported_parameters=tools,no_such_parameter', secret);
    expect(none.body).toMatchObject({ data: [], total_count: 0, links: { next: null } });

    const firstPage = await harness.get('/models?limit=2', secret);
    expect(firstPage.body).toMatchObject({
      data: all.data.slice(0, 2),
      links: { next: '/api/v1/models?limit=2&offset=2' },
      total_count: all.total_count,
    });
    // The SDK walks the pages by offset.
    const ids: string[] = [];
    for await (const page of await sdk(secret).models.list({ limit: 3 }))
      ids.push(...page.result.data.map((m) => m.id));
    expect(ids).toEqual(all.data.map((model) => model.id));
    expect((await harness.get('/models?limit=-1', secret)).status).toBe(400);
  });
});

describe('system_fingerprint', () => {
  const gateway = useHarness(startHarness);

  it('a whole answer carries the upstream’s system_fingerprint', async () => {
    gateway().upstream.script((request) =>
      jsonReply(200, {
        id: 'chatcmpl-fp',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: String(request.body?.model),
        system_fingerprint: 'fp_5d2c9a1e',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      }),
    );
    const client = sdk(callerSecret, gateway().baseURL);
    const answer = await ask(client, 'fake/gpt-test');
    expect(answer.systemFingerprint).toBe('fp_5d2c9a1e');
  });
});
