// Model aliases through the HTTP API, over the real accounts stack: an alias reaches its target's provider with the
// target's model name on every endpoint, the key's rules, the price and the usage row see the target, an alias set
// by another process is used at the next request, and a name that is neither gets a 404 saying how to fix it.

import { OpenRouter } from '@openrouter/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../main/store/index.js';
import { failure, startAccountsHarness, type AccountsHarness } from '../accounts/harness.js';

let harness: AccountsHarness;

beforeEach(async () => {
  harness = await startAccountsHarness();
  // 11 prompt + 3 completion tokens of echo-1 cost $0.017 at these prices.
  await harness.accounts.prices.set('up/echo-1', { input: 1000, output: 2000 });
});

afterEach(async () => {
  await harness.close();
});

const hello = [{ role: 'user' as const, content: 'hi' }];

function post(path: string, secret: string, body: unknown) {
  return fetch(`${harness.baseURL}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function lastUpstreamModel(): unknown {
  return harness.upstream.requests.at(-1)?.body?.model;
}

async function usageRows() {
  await harness.usage.flush();
  return harness.store.listUsage();
}

describe('a chat completion with an alias', () => {
  it('reaches the target with its model name; the answer, price and usage row name the target', async () => {
    await harness.aliases.set('claude-sonnet-4-5', 'up/echo-1');
    const client = harness.client((await harness.createKey('k')).key);

    const whole = await client.chat.completions.create({ model: 'claude-sonnet-4-5', messages: hello, stream: false });
    expect(whole.choices[0]?.message.content).toBe('Hello!');
    expect(whole.model).toBe('up/echo-1');
    expect(lastUpstreamModel()).toBe('echo-1');

    const stream = await client.chat.completions.create({ model: 'claude-sonnet-4-5', messages: hello, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello!');
    expect(lastUpstreamModel()).toBe('echo-1');

    expect((await usageRows()).map((row) => [row.model, row.provider, row.status, row.cost])).toEqual([
      ['up/echo-1', 'up', 200, 0.017],
      ['up/echo-1', 'up', 200, 0.017],
    ]);
  });

  it('as a fallback in `models` too', async () => {
    await harness.aliases.set('backup', 'other/echo-1');
    const secret = (await harness.createKey('k')).key;
    const response = await post('/chat/completions', secret, {
      model: 'up/no-such-model',
      models: ['backup'],
      messages: hello,
      stream: false,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { model: string }).model).toBe('other/echo-1');
  });

  it('set through another Store on the same file is used at the next request, and its removal too', async () => {
    const client = harness.client((await harness.createKey('k')).key);
    const otherProcess = openStore(harness.dataDir);
    try {
      await otherProcess.setModelAlias('gpt-5-codex', 'other/echo-1', Date.now());
      await client.chat.completions.create({ model: 'gpt-5-codex', messages: hello, stream: false });
      expect((await usageRows()).at(0)).toMatchObject({ model: 'other/echo-1', provider: 'other' });

      await otherProcess.setModelAlias('gpt-5-codex', 'up/gpt-4o', Date.now());
      await client.chat.completions.create({ model: 'gpt-5-codex', messages: hello, stream: false });
      expect(lastUpstreamModel()).toBe('gpt-4o');
      expect((await usageRows()).at(0)).toMatchObject({ model: 'up/gpt-4o', provider: 'up' });

      await otherProcess.removeModelAlias('gpt-5-codex');
      const gone = await failure(() =>
        client.chat.completions.create({ model: 'gpt-5-codex', messages: hello, stream: false }),
      );
      expect(gone.status).toBe(404);
    } finally {
      await otherProcess.close();
    }
  });
});

describe('a name that is neither an alias nor <provider>/<model>', () => {
  const message =
    'Model "gpt-5-codex" is neither an alias nor "<provider>/<model>". Name a model as <provider>/<model> ' +
    '(GET /v1/models lists them), or make "gpt-5-codex" an alias: switchyard models alias gpt-5-codex ' +
    'PROVIDER/MODEL (or in the Providers screen).';

  it.each([
    ['/chat/completions', { model: 'gpt-5-codex', messages: hello }],
    ['/chat/completions', { model: 'up/echo-1', models: ['gpt-5-codex'], messages: hello }],
    ['/embeddings', { model: 'gpt-5-codex', input: 'hi' }],
    ['/completions', { model: 'gpt-5-codex', prompt: 'hi' }],
  ])('%s %j: 404 naming both fixes, nothing sent upstream', async (path, body) => {
    const response = await post(path, (await harness.createKey('k')).key, body);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 404, message, metadata: {} } });
    expect(harness.upstream.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });
});

describe('embeddings and legacy completions', () => {
  it('take an alias, send the target model name upstream and record the target', async () => {
    await harness.aliases.set('embedder', 'up/echo-1');
    const secret = (await harness.createKey('k')).key;
    const embedded = await post('/embeddings', secret, { model: 'embedder', input: 'abc' });
    expect(embedded.status).toBe(200);
    expect(((await embedded.json()) as { model: string }).model).toBe('up/echo-1');
    expect(lastUpstreamModel()).toBe('echo-1');

    const completed = await post('/completions', secret, { model: 'embedder', prompt: 'def', stream: false });
    expect(completed.status).toBe(200);
    expect(((await completed.json()) as { model: string }).model).toBe('up/echo-1');
    expect(lastUpstreamModel()).toBe('echo-1');
    expect((await usageRows()).map((row) => [row.model, row.provider])).toEqual([
      ['up/echo-1', 'up'],
      ['up/echo-1', 'up'],
    ]);
  });
});

describe('key rules see the target', () => {
  it('a key allowed only up/* uses an alias to up/*, and cannot reach other/* through one', async () => {
    await harness.aliases.set('allowed', 'up/echo-1');
    await harness.aliases.set('smuggled', 'other/echo-1');
    const client = harness.client((await harness.createKey('k', { allowed_models: ['up/*'] })).key);
    await client.chat.completions.create({ model: 'allowed', messages: hello, stream: false });
    const calls = harness.chatCalls();

    const refused = await failure(() =>
      client.chat.completions.create({ model: 'smuggled', messages: hello, stream: false }),
    );
    expect(refused.status).toBe(403);
    expect(refused.error.message).toContain('other/echo-1');
    const embedRefused = await post('/embeddings', (await harness.createKey('e', { allowed_models: ['up/*'] })).key, {
      model: 'smuggled',
      input: 'x',
    });
    expect(embedRefused.status).toBe(403);
    expect(harness.chatCalls()).toBe(calls);
    expect((await usageRows()).map((row) => [row.model, row.status])).toEqual([
      ['other/echo-1', 403],
      ['other/echo-1', 403],
      ['up/echo-1', 200],
    ]);
  });
});

describe('GET /models', () => {
  interface Entry {
    id: string;
    canonical_slug: string;
    alias_for?: string;
    pricing: { prompt: string };
    links: { details: string };
  }

  it('lists each alias the key may use first, with its target’s details, and finds it by id', async () => {
    await harness.aliases.set('claude-sonnet-4-5', 'up/echo-1');
    await harness.aliases.set('elsewhere', 'other/gpt-4o');
    await harness.aliases.set('unlisted', 'up/no-such-model');
    const secret = (await harness.createKey('k', { allowed_models: ['up/*'] })).key;

    const list = (await harness.get('/models', secret)).body as { data: Entry[]; total_count: number };
    expect(list.data.filter((entry) => entry.alias_for)).toEqual([
      expect.objectContaining({
        id: 'claude-sonnet-4-5',
        canonical_slug: 'up/echo-1',
        alias_for: 'up/echo-1',
        pricing: expect.objectContaining({ prompt: '0.001' }),
        links: { details: '/api/v1/models/claude-sonnet-4-5/endpoints' },
      }),
    ]);
    expect(list.data[0]?.id).toBe('claude-sonnet-4-5');
    expect(list.data.map((entry) => entry.id)).not.toContain('elsewhere');
    expect(list.total_count).toBe(list.data.length);

    const one = await harness.get('/models/claude-sonnet-4-5', secret);
    expect(one.body).toMatchObject({ data: { id: 'claude-sonnet-4-5', alias_for: 'up/echo-1' } });
    const endpoints = await harness.get('/models/claude-sonnet-4-5/endpoints', secret);
    expect(endpoints.body).toMatchObject({
      data: { id: 'claude-sonnet-4-5', endpoints: [{ model_id: 'up/echo-1', provider_name: 'up' }] },
    });
    expect((await harness.get('/models/elsewhere', secret)).status).toBe(404);

    // OpenRouter's SDK, which validates entries strictly, takes the alias's entry.
    const sdk = new OpenRouter({ apiKey: secret, serverURL: harness.baseURL, retryConfig: { strategy: 'none' } });
    const page = await sdk.models.list();
    expect(page.result.data[0]).toMatchObject({ id: 'claude-sonnet-4-5', canonicalSlug: 'up/echo-1' });
  });
});
