// Costs as callers see them (final chunk, non-streamed usage), the usage rows behind them (failed and cancelled
// requests included), and GET /key, /credits and /generation in OpenRouter's shapes.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { usdToNanos } from '../../shared/api/index.js';
import { waitFor } from '../support/wait-for.js';
import { startAccountsHarness, type AccountsHarness } from './harness.js';

let harness: AccountsHarness;

beforeEach(async () => {
  harness = await startAccountsHarness();
});

afterEach(async () => {
  await harness.close();
});

async function stream(client: OpenAI, model: string) {
  const chunks = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  });
  let last: OpenAI.Chat.Completions.ChatCompletionChunk | undefined;
  for await (const chunk of chunks) last = chunk;
  return last!;
}

/** The gateway adds `cost` (USD) to usage; the SDK's types do not know it. */
const costOf = (usage: unknown) => (usage as { cost?: number } | undefined)?.cost;

async function rowOf(id: string) {
  await harness.usage.flush();
  return harness.store.getUsage(id);
}

describe('cost in responses and rows', () => {
  it('puts the bundled price’s cost in the final chunk, the non-streamed usage and the row', async () => {
    const client = harness.client((await harness.createKey('k')).key);
    // gpt-4o: 11 × $2.50/M + 3 × $10/M = $0.0000575
    const last = await stream(client, 'up/gpt-4o');
    expect(last.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 3, cost: 0.0000575 });
    expect(await rowOf(last.id)).toMatchObject({
      cost: 0.0000575,
      unpriced: false,
      provider: 'up',
      finish_reason: 'stop',
    });
    const whole = await client.chat.completions.create({
      model: 'other/gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
    expect(whole.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 3, cost: 0.0000575 });
    expect((await rowOf(whole.id))?.cost).toBe(0.0000575);
  });

  it('prices cache reads and writes from the usage the upstream reports', async () => {
    harness.upstreamOptions.usage = {
      prompt_tokens: 1000,
      completion_tokens: 50,
      total_tokens: 1050,
      prompt_tokens_details: { cached_tokens: 400, cache_write_tokens: 100 },
    };
    const last = await stream(harness.client((await harness.createKey('k')).key), 'up/claude-sonnet-4-20250514');
    // 500 × $3 + 400 × $0.30 + 100 × $3.75 + 50 × $15 per million tokens
    expect(costOf(last.usage)).toBe(0.002745);
    expect(await rowOf(last.id)).toMatchObject({ cost: 0.002745, cached_tokens: 400, prompt_tokens: 1000 });
  });

  it('passes the upstream’s own cost through, and marks an unpriced model with cost 0', async () => {
    const client = harness.client((await harness.createKey('k')).key);
    harness.upstreamOptions.usage = { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14, cost: 0.00042 };
    const reported = await stream(client, 'up/gpt-4o');
    expect(costOf(reported.usage)).toBe(0.00042);
    expect((await rowOf(reported.id))?.cost).toBe(0.00042);

    harness.upstreamOptions.usage = undefined;
    const unpriced = await stream(client, 'up/echo-1');
    expect(costOf(unpriced.usage)).toBe(0);
    expect(await rowOf(unpriced.id)).toMatchObject({ cost: 0, unpriced: true, prompt_tokens: 11 });
  });

  it('uses a price override at the next request', async () => {
    const client = harness.client((await harness.createKey('k')).key);
    await harness.accounts.prices.set('gpt-4o', { input: 1, output: 1 });
    expect(costOf((await stream(client, 'up/gpt-4o')).usage)).toBe(0.000014);
  });

  it('records and charges a stream that failed after the upstream reported usage, with that usage', async () => {
    await harness.accounts.setCredits(1);
    harness.upstreamOptions.failAfterUsage = true;
    const chunks = await harness.client((await harness.createKey('k')).key).chat.completions.create({
      model: 'up/gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let id = '';
    // The SDK throws on OpenRouter's error chunk (finish_reason 'error' with an `error` field).
    await expect(
      (async () => {
        for await (const chunk of chunks) id = chunk.id;
      })(),
    ).rejects.toThrow(/not JSON/);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 200, finish_reason: 'error', prompt_tokens: 11, completion_tokens: 3 });
    expect(row?.cost).toBe(0.0000575);
    expect(usdToNanos(harness.accounts.creditsStatus().balance)).toBe(1_000_000_000 - 57_500);
  });

  it('records a stream the caller cancelled, as cancelled, billed from an estimate of what was generated', async () => {
    harness.upstreamOptions.pieceDelayMs = 200;
    const client = harness.client((await harness.createKey('k')).key);
    const controller = new AbortController();
    const chunks = await client.chat.completions.create(
      { model: 'up/gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true },
      { signal: controller.signal },
    );
    let id = '';
    for await (const chunk of chunks) {
      id = chunk.id;
      controller.abort();
    }
    await waitFor(() => harness.usage.get(id), { what: 'the usage row' });
    const row = (await harness.usage.get(id))!;
    expect(row).toMatchObject({ finish_reason: 'cancelled', status: 200, estimated: true });
    // gpt-4o's price applies to the estimated tokens: the request is not free.
    expect(row.prompt_tokens).toBeGreaterThan(0);
    expect(row.cost).toBeGreaterThan(0);
  });
});

describe('GET /key, /credits, /generation', () => {
  it('GET /key describes the calling key in OpenRouter’s shape', async () => {
    await harness.accounts.prices.set('echo-1', { input: 1000, output: 2000 });
    const key = await harness.createKey('reporting', {
      limit: 1,
      limit_reset: 'monthly',
      requests_per_minute: 30,
      management: false,
    });
    await stream(harness.client(key.key), 'up/echo-1');
    const response = await harness.get('/key', key.key);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: {
        label: key.label,
        name: 'reporting',
        usage: 0.017,
        usage_daily: 0.017,
        usage_weekly: 0.017,
        usage_monthly: 0.017,
        limit: 1,
        limit_remaining: 0.983,
        limit_reset: 'monthly',
        is_free_tier: false,
        is_management_key: false,
        is_provisioning_key: false,
        expires_at: null,
        rate_limit: { requests: 30, tokens: null, interval: '60s', note: expect.any(String) as unknown },
        include_byok_in_limit: false,
        byok_usage: 0,
        byok_usage_daily: 0,
        byok_usage_weekly: 0,
        byok_usage_monthly: 0,
        allowed_data_regions: [],
        creator_user_id: null,
        organization_id: null,
        workspace_id: null,
        free_model_daily_requests: { limit: -1, remaining: -1, used: 0 },
      },
    });
    const unlimited = await harness.get('/key', (await harness.createKey('plain', { management: true })).key);
    expect(unlimited.body).toMatchObject({
      data: {
        usage: 0,
        limit: null,
        limit_remaining: null,
        limit_reset: null,
        is_management_key: true,
        rate_limit: { requests: -1, tokens: null },
      },
    });
  });

  it('GET /credits: the largest balance and unlimited while no balance is set, then granted and used in USD', async () => {
    await harness.accounts.prices.set('echo-1', { input: 1000, output: 2000 });
    const key = await harness.createKey('k');
    expect((await harness.get('/credits', key.key)).body).toEqual({
      data: { total_credits: 1_000_000_000, total_usage: 0, unlimited: true },
    });
    await harness.accounts.setCredits(5);
    await stream(harness.client(key.key), 'up/echo-1');
    expect((await harness.get('/credits', key.key)).body).toEqual({
      data: { total_credits: 5, total_usage: 0.017, unlimited: false },
    });
  });

  it('GET /generation returns one record; 400 without id; 404 unknown or another key’s unless management', async () => {
    const owner = await harness.createKey('owner', { management: false });
    const snoop = await harness.createKey('snoop', { management: false });
    const manager = await harness.createKey('manager', { management: true });
    const last = await stream(
      harness.client(owner.key, { 'X-Title': 'My App', 'HTTP-Referer': 'https://app.example' }),
      'up/gpt-4o',
    );
    const response = await harness.get(`/generation?id=${last.id}`, owner.key);
    expect(response.status).toBe(200);
    const data = (response.body as { data: Record<string, unknown> }).data;
    expect(data).toMatchObject({
      id: last.id,
      model: 'up/gpt-4o',
      provider_name: 'up',
      app: 'My App',
      origin: 'https://app.example',
      streamed: true,
      status: 200,
      finish_reason: 'stop',
      cancelled: false,
      tokens_prompt: 11,
      tokens_completion: 3,
      native_tokens_cached: 0,
      native_tokens_reasoning: 0,
      total_cost: 0.0000575,
      unpriced: false,
      error: null,
      dropped_tools: [],
    });
    expect(data.latency).toEqual(expect.any(Number));
    expect(data.time_to_first_token).toEqual(expect.any(Number));
    expect(Date.parse(data.created_at as string)).not.toBeNaN();

    expect((await harness.get(`/generation?id=${last.id}`, snoop.key)).status).toBe(404);
    expect((await harness.get(`/generation?id=${last.id}`, manager.key)).status).toBe(200);
    const unknown = await harness.get('/generation?id=gen-nope', owner.key);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { code: 404, metadata: {} } });
    const missing = await harness.get('/generation', owner.key);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: { code: 400 } });
  });
});

describe('reconciliation', () => {
  it('granted − the sum of the rows’ exact costs equals the balance, after a mix of requests', async () => {
    await harness.accounts.prices.set('echo-1', { input: 1000, output: 2000 });
    await harness.accounts.setCredits(3);
    const client = harness.client((await harness.createKey('k')).key);
    await Promise.all([
      stream(client, 'up/echo-1'),
      stream(client, 'up/gpt-4o'),
      stream(client, 'other/claude-sonnet-4-20250514'),
      client.chat.completions.create({ model: 'up/echo-1', messages: [{ role: 'user', content: 'x' }], stream: false }),
      stream(client, 'nowhere/model').catch(() => undefined),
    ]);
    await harness.accounts.addCredits(0.5);
    await harness.usage.flush();
    const rows = await harness.store.listUsage();
    expect(rows).toHaveLength(5);
    const spent = rows.reduce((sum, row) => sum + usdToNanos(row.cost), 0);
    const granted = (await harness.store.listCreditLedger()).reduce((sum, entry) => sum + entry.amountNanos, 0);
    expect(granted - spent).toBe(usdToNanos(harness.accounts.creditsStatus().balance));
    expect(harness.store.getCreditAccount().usedNanos).toBe(spent);
  });
});
