// The UI's channels for providers, prices, keys, usage, credits, the gateway and MCP settings, against a real app on
// a temp data dir (no gateway listening, no MCP server started): what each answers, and what it never answers.
// Each test has an app, a data dir and a fake upstream of its own, so none depends on another having run.

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { singleTarget } from '../../shared/api/index.js';
import type { BridgeChannel, BridgeRequest, BridgeResponse } from '../../shared/bridge/contract.js';
import type { BridgeErrorInfo } from '../../shared/bridge/transport.js';
import type { FakeUpstream } from '../../test/support/fake-openai-upstream.js';
import type { App } from '../app/index.js';
import type { BridgeHandlers } from './create-bridge-handlers.js';
import { useBridgeApp } from './test-support.js';

const providerSecret = 'sk-upstream-very-secret-1234abcd';
let dataDir: string;
let app: App;
let bridge: BridgeHandlers;
let upstream: FakeUpstream;
/** Every answer of the test, to check that no secret ever crossed the bridge. */
let answers: string[];

async function call<C extends BridgeChannel>(channel: C, request: BridgeRequest<C>): Promise<BridgeResponse<C>> {
  const result = await bridge.invoke(channel, request);
  answers.push(JSON.stringify(result));
  if (!result.ok) throw Object.assign(new Error(result.error.message), { info: result.error });
  return result.value as BridgeResponse<C>;
}

async function failure(channel: BridgeChannel, request: unknown): Promise<BridgeErrorInfo> {
  const result = await bridge.invoke(channel, request);
  answers.push(JSON.stringify(result));
  if (result.ok) throw new Error(`${channel} succeeded: ${JSON.stringify(result.value)}`);
  return result.error;
}

useBridgeApp((started) => ({ dataDir, app, bridge, upstream } = started), {
  models: ['echo-1', 'echo-2'],
  gatewayUrl: 'http://127.0.0.1:7420/api/v1',
});

beforeEach(() => {
  answers = [];
});

afterEach(() => {
  // No answer anywhere carried a provider key.
  expect(answers.join('\n')).not.toContain(providerSecret);
  expect(answers.join('\n')).not.toContain('sk-another-key-99zz');
});

/** The fake upstream as provider `fake`, with its key in the secret store. */
function addFakeProvider() {
  return call('providers:add', { id: 'fake', kind: 'openai', baseUrl: upstream.baseUrl, apiKey: providerSecret });
}

describe('providers and prices', () => {
  it('adds a provider with a key that is stored, never answered, and shown by its last four characters', async () => {
    const { provider } = await addFakeProvider();
    expect(provider).toMatchObject({ id: 'fake', has_api_key: true, api_key_tail: 'abcd' });
    expect((await call('providers:list', {})).providers).toEqual([
      expect.objectContaining({ id: 'fake', source: 'configured', api_key_tail: 'abcd' }),
    ]);
    expect(await (await app.secrets()).get('provider:fake')).toBe(providerSecret);
    // "add" never overwrites: the UI edits instead.
    expect(
      await failure('providers:add', { id: 'fake', kind: 'openai', baseUrl: upstream.baseUrl, apiKey: null }),
    ).toEqual({
      code: 'conflict',
      message: expect.stringContaining('exists already'),
    });
  });

  it('tests the connection by listing the models, and lists them with their prices', async () => {
    await addFakeProvider();
    expect(await call('providers:test', { id: 'fake' })).toEqual({
      ok: true,
      message: 'Connected: 2 models.',
      modelCount: 2,
    });
    const seen = upstream.requests.filter((request) => request.url === '/v1/models').at(-1);
    expect(seen?.headers.authorization).toBe(`Bearer ${providerSecret}`);
    await call('prices:set', { model: 'fake/echo-1', input: 1.5, output: 6 });
    const { models } = await call('providers:models', { id: 'fake' });
    expect(models).toEqual([
      {
        id: 'fake/echo-1',
        name: 'echo-1',
        contextLength: null,
        price: { model: 'fake/echo-1', source: 'override', input: 1.5, output: 6, cache_read: null, cache_write: null },
      },
      { id: 'fake/echo-2', name: 'echo-2', contextLength: null, price: null },
    ]);
    expect((await call('prices:list', {})).prices[0]).toMatchObject({ model: 'fake/echo-1', source: 'override' });
    expect(await call('prices:unset', { model: 'fake/echo-1' })).toEqual({ removed: true });
    expect(await call('prices:unset', { model: 'fake/echo-1' })).toEqual({ removed: false });
  });

  it('reports a provider that cannot be reached as a failed test, with the reason', async () => {
    await call('providers:add', { id: 'down', kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: null });
    const result = await call('providers:test', { id: 'down' });
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/down/i);
    expect(await failure('providers:test', { id: 'nope' })).toMatchObject({ code: 'not-found' });
  });

  it('updates the base URL keeping the key, replaces the key, removes the key, and removes the provider', async () => {
    await addFakeProvider();
    await call('providers:add', { id: 'down', kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: null });
    const moved = await call('providers:update', { id: 'fake', baseUrl: `${upstream.baseUrl}/` });
    expect(moved.provider).toMatchObject({ base_url: upstream.baseUrl, has_api_key: true, api_key_tail: 'abcd' });
    expect(await (await app.secrets()).get('provider:fake')).toBe(providerSecret);
    const rekeyed = await call('providers:update', { id: 'fake', apiKey: 'sk-another-key-99zz' });
    expect(rekeyed.provider.api_key_tail).toBe('99zz');
    const keyless = await call('providers:update', { id: 'fake', apiKey: null });
    expect(keyless.provider).toMatchObject({ has_api_key: false });
    expect(keyless.provider.api_key_tail).toBeUndefined();
    expect(await (await app.secrets()).get('provider:fake')).toBeNull();
    expect(await failure('providers:update', { id: 'fake', baseUrl: 'ftp://x' })).toMatchObject({
      code: 'invalid-request',
    });
    expect(await call('providers:remove', { id: 'down' })).toEqual({ removed: true });
    expect(await failure('providers:remove', { id: 'down' })).toMatchObject({ code: 'not-found' });
  });
});

describe('model aliases', () => {
  it('creates, points elsewhere, lists and removes aliases, as the CLI and the gateway see them', async () => {
    const created = await call('aliases:set', { name: 'gpt-5-codex', target: 'fake/echo-1' });
    expect(created).toEqual({
      alias: {
        name: 'gpt-5-codex',
        target: 'fake/echo-1',
        ...singleTarget('fake/echo-1'),
        created_at: expect.any(String),
      },
      previous: null,
    });
    const changed = await call('aliases:set', { name: 'gpt-5-codex', target: 'fake/echo-2' });
    expect(changed.previous?.target).toBe('fake/echo-1');
    expect((await call('aliases:list', {})).aliases).toEqual([changed.alias]);
    expect(app.registry.canonicalModel('gpt-5-codex')).toBe('fake/echo-2');
    expect(await call('aliases:remove', { name: 'gpt-5-codex' })).toEqual({ removed: true });
    expect(await call('aliases:remove', { name: 'gpt-5-codex' })).toEqual({ removed: false });
    expect(app.aliases.list()).toEqual([]);
  });

  it('makes a model group from targets, a strategy and weights', async () => {
    const group = { targets: ['fake/echo-1', 'fake/echo-2'], strategy: 'weighted' as const, weights: [2, 1] };
    const { alias } = await call('aliases:set', { name: 'team', target: 'fake/echo-1', ...group });
    expect(alias).toMatchObject({ name: 'team', target: 'fake/echo-1', ...group });
    expect(app.aliases.groupOf('team')).toMatchObject(group);
    expect(await failure('aliases:set', { name: 'team', target: 'fake/echo-1', ...group, weights: [1] })).toMatchObject(
      {
        message: expect.stringMatching(/1 weights for 2 targets/),
      },
    );
  });

  it('refuses a name with a slash or spaces, and a target that is not <provider>/<model>', async () => {
    expect(await failure('aliases:set', { name: 'openai/gpt-4o', target: 'fake/echo-1' })).toEqual({
      code: 'invalid-request',
      message: expect.stringMatching(/^name: use 1–100 letters, digits/),
    });
    expect(await failure('aliases:set', { name: 'a b', target: 'fake/echo-1' })).toMatchObject({
      code: 'invalid-request',
    });
    expect(await failure('aliases:set', { name: 'fast', target: 'other-alias' })).toEqual({
      code: 'invalid-request',
      message: 'target: must be "<provider>/<model>"',
    });
    expect((await call('aliases:list', {})).aliases).toEqual([]);
  });
});

describe('keys', () => {
  it('answers the secret once, at creation, and lists keys with their usage but never a secret', async () => {
    const created = await call('keys:create', {
      name: 'scripts',
      limit: 5,
      allowed_models: ['fake/*'],
      management: false,
    });
    expect(created.secret).toMatch(/^sk-/);
    expect(created.key).toMatchObject({ name: 'scripts', limit: 5, allowed_models: ['fake/*'], management: false });
    expect(JSON.stringify(created.key)).not.toContain(created.secret);
    expect(app.keys.authenticate(created.secret)?.id).toBe(created.key.id);

    const { keys } = await call('keys:list', {});
    expect(keys).toEqual([
      expect.objectContaining({
        id: created.key.id,
        state: 'active',
        limit_remaining: 5,
        usage: { requests: 0, cost: 0, unpriced_requests: 0 },
      }),
    ]);
    const updated = await call('keys:update', { id: created.key.id, limit: null, disabled: true });
    expect(updated.key).toMatchObject({ limit: null, disabled: true });
    expect((await call('keys:list', {})).keys[0]).toMatchObject({ state: 'disabled', limit_remaining: null });
    expect(await failure('keys:update', { id: created.key.id, allowed_models: ['not a pattern'] })).toMatchObject({
      code: 'invalid-request',
    });

    expect(await call('keys:delete', { id: created.key.id })).toEqual({ deleted: true });
    expect(app.keys.authenticate(created.secret)).toBeNull();
    expect(await failure('keys:delete', { id: created.key.id })).toMatchObject({ code: 'not-found' });
    expect(answers.filter((answer) => answer.includes(created.secret))).toHaveLength(1);
  });

  it('creates a key without the management right unless asked for it', async () => {
    expect((await call('keys:create', { name: 'default' })).key.management).toBe(false);
    expect((await call('keys:create', { name: 'admin', management: true })).key.management).toBe(true);
  });
});

describe('usage and credits', () => {
  it('summarises, lists, finds and exports usage, and sets, adds to and unsets the balance', async () => {
    const key = await app.keys.create('usage-test');
    const base = {
      key_id: key.id,
      app_referer: null,
      provider: 'fake',
      streamed: true,
      status: 200,
      finish_reason: 'stop',
      cached_tokens: 0,
      reasoning_tokens: 0,
      unpriced: false,
      latency_ms: 120,
      ttft_ms: 40,
      error: null,
    };
    app.accounts.record({
      ...base,
      id: 'gen-1',
      created_at: Date.now() - 1000,
      app_title: '=cmd',
      model: 'fake/echo-1',
      prompt_tokens: 10,
      completion_tokens: 5,
      cost: 0.25,
    });
    app.accounts.record({
      ...base,
      id: 'gen-2',
      created_at: Date.now(),
      app_title: 'Tool',
      model: 'fake/echo-2',
      prompt_tokens: 1,
      completion_tokens: 1,
      cost: 0.5,
    });

    const byModel = await call('usage:summary', { by: 'model' });
    expect(byModel.rows.map((row) => [row.group, row.requests, row.cost])).toEqual([
      ['fake/echo-2', 1, 0.5],
      ['fake/echo-1', 1, 0.25],
    ]);
    expect(byModel.total).toMatchObject({ requests: 2, cost: 0.75, prompt_tokens: 11 });
    expect((await call('usage:summary', { by: 'key' })).rows[0]).toMatchObject({ label: 'usage-test' });
    expect((await call('usage:recent', { limit: 1 })).rows.map((row) => row.id)).toEqual(['gen-2']);
    expect((await call('usage:generation', { id: 'gen-1' })).generation).toMatchObject({
      model: 'fake/echo-1',
      total_cost: 0.25,
    });
    expect(await failure('usage:generation', { id: 'gen-x' })).toMatchObject({ code: 'not-found' });
    expect((await call('keys:list', {})).keys.find((listed) => listed.id === key.id)?.usage).toEqual({
      requests: 2,
      cost: 0.75,
      unpriced_requests: 0,
    });

    const requests = await call('usage:export-csv', { kind: 'requests' });
    expect(requests.fileName).toMatch(/^switchyard-requests-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = requests.csv.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^created_at,id,key_id,app_title,/);
    expect(lines).toHaveLength(3);
    expect(requests.csv).toContain(",'=cmd,"); // a formula-looking app name is defused
    const summary = await call('usage:export-csv', { kind: 'summary', by: 'app' });
    expect(summary.csv.split('\n')[0]).toBe(
      'app,requests,errors,cancelled,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,cost_usd,unpriced_requests',
    );

    expect((await call('credits:show', {})).status).toEqual({
      limited: false,
      balance: null,
      granted: null,
      used: 0.75,
    });
    expect((await call('credits:set', { amount: 10 })).status).toMatchObject({ limited: true, balance: 10 });
    expect((await call('credits:add', { amount: 2.5 })).status).toMatchObject({ balance: 12.5 });
    expect(await failure('credits:add', { amount: 0 })).toMatchObject({ code: 'invalid-request' });
    expect((await call('credits:unset', {})).status.limited).toBe(false);
    expect((await call('credits:show', {})).history.map((entry) => entry.action)).toEqual(['set', 'add', 'unset']);
  });
});

describe('gateway info', () => {
  it('gives both base URLs, the port, and snippets that use the /v1 one and read the key from the environment', async () => {
    const info = await call('gateway:info', { model: "fake/it's" });
    expect(info).toMatchObject({
      listening: true,
      baseUrl: 'http://127.0.0.1:7420/api/v1',
      openAIBaseUrl: 'http://127.0.0.1:7420/v1',
      port: 7420,
    });
    expect(info.snippets.map((snippet) => snippet.id)).toEqual(['curl', 'openai-js', 'openai-python']);
    for (const snippet of info.snippets) {
      expect(snippet.code).toContain('http://127.0.0.1:7420/v1');
      expect(snippet.code).not.toContain('/api/v1');
      expect(snippet.code).toContain('SWITCHYARD_API_KEY');
    }
    // The quote in the model id cannot end the shell's single-quoted body.
    expect(info.snippets[0]!.code).toContain(`"fake/it'\\''s"`);
  });

  it("reads and stores the response cache's setting, refusing a TTL that is not whole seconds up to a year", async () => {
    expect(await call('gateway:cache-setting', {})).toEqual({
      stored: { ttlSeconds: 0, scope: 'key' },
      effective: { ttlSeconds: 0, scope: 'key' },
      overridden: { ttlSeconds: false, scope: false },
    });
    expect(await call('gateway:set-cache-setting', { ttlSeconds: 90, scope: 'all' })).toMatchObject({
      stored: { ttlSeconds: 90, scope: 'all' },
      effective: { ttlSeconds: 90, scope: 'all' },
    });
    for (const ttlSeconds of [-1, 2.5, 31_536_001]) {
      expect(await failure('gateway:set-cache-setting', { ttlSeconds, scope: 'key' })).toMatchObject({
        code: 'invalid-request',
      });
    }
    expect(await failure('gateway:set-cache-setting', { ttlSeconds: 5, scope: 'everyone' })).toMatchObject({
      code: 'invalid-request',
    });
    expect((await call('gateway:cache-setting', {})).stored).toEqual({ ttlSeconds: 90, scope: 'all' });
  });
});

describe('MCP settings', () => {
  const settingsFile = () => path.join(dataDir, 'mcp_settings.json');
  const onDisk = () => JSON.parse(fs.readFileSync(settingsFile(), 'utf8')) as { mcpServers: Record<string, unknown> };

  it('adds, renames in place and removes servers through the form, keeping unknown fields', async () => {
    fs.writeFileSync(settingsFile(), JSON.stringify({ theirs: 1, mcpServers: { a: { command: 'a' } } }));
    const added = await call('mcp:set-server', {
      name: 'b',
      entry: { command: 'b', env: { TOKEN: 't' }, extra: true },
    });
    expect(added).toEqual({ saved: true, problems: [] });
    expect(await failure('mcp:set-server', { name: 'a', entry: { command: 'x' } })).toMatchObject({ code: 'conflict' });
    await call('mcp:set-server', {
      name: 'c',
      entry: { command: 'c', env: { TOKEN: 't' }, extra: true },
      previousName: 'b',
    });
    expect(onDisk()).toEqual({
      theirs: 1,
      mcpServers: { a: { command: 'a' }, c: { command: 'c', env: { TOKEN: 't' }, extra: true } },
    });
    const settings = await call('mcp:get-settings', {});
    expect(settings.servers.map((server) => [server.name, server.entry])).toEqual([
      ['a', { command: 'a' }],
      ['c', { command: 'c', env: { TOKEN: 't' }, extra: true }],
    ]);
    expect(await call('mcp:remove-server', { name: 'a' })).toEqual({ removed: true });
    expect(Object.keys(onDisk().mcpServers)).toEqual(['c']);
  });

  it('writes nothing for an entry with an error, and answers the field it is in', async () => {
    fs.writeFileSync(settingsFile(), JSON.stringify({ mcpServers: { c: { command: 'c' } } }));
    const before = fs.readFileSync(settingsFile(), 'utf8');
    const result = await call('mcp:set-server', {
      name: 'c',
      entry: { command: 'c', timeout: 'abc' },
      previousName: 'c',
    });
    expect(result.saved).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({
        path: 'mcpServers.c.timeout',
        severity: 'error',
        message: expect.stringContaining('"abc"'),
      }),
    ]);
    expect(fs.readFileSync(settingsFile(), 'utf8')).toBe(before);
  });

  it('toggles auto-approve and disabled in the file', async () => {
    fs.writeFileSync(settingsFile(), JSON.stringify({ mcpServers: { c: { command: 'c' } } }));
    expect(await call('mcp:set-auto-approve', { name: 'c', tool: 'echo', autoApprove: true })).toEqual({
      autoApprove: ['echo'],
    });
    expect(await call('mcp:set-auto-approve', { name: 'c', tool: 'add', autoApprove: true })).toEqual({
      autoApprove: ['echo', 'add'],
    });
    expect(await call('mcp:set-auto-approve', { name: 'c', tool: 'echo', autoApprove: false })).toEqual({
      autoApprove: ['add'],
    });
    await call('mcp:set-disabled', { name: 'c', disabled: true });
    expect(onDisk().mcpServers.c).toMatchObject({ autoApprove: ['add'], disabled: true });
    await call('mcp:set-disabled', { name: 'c', disabled: false });
    expect(onDisk().mcpServers.c).not.toHaveProperty('disabled');
    expect(await failure('mcp:set-disabled', { name: 'zz', disabled: true })).toMatchObject({ code: 'not-found' });
  });

  it('saves raw text as typed, refuses invalid JSON or a stale base with the reason, and fixes a broken file', async () => {
    const invalid = await call('mcp:save-settings', { text: '{ "mcpServers": { ' });
    expect(invalid.saved).toBe(false);
    expect(invalid.problems[0]?.message).toMatch(/not valid JSON \(line 1, column \d+\)/);
    const badField = await call('mcp:save-settings', { text: '{"mcpServers": {"x": {"command": 3}}}' });
    expect(badField).toMatchObject({ saved: false, problems: [{ path: 'mcpServers.x.command' }] });

    fs.writeFileSync(settingsFile(), '{ broken');
    expect(await failure('mcp:set-disabled', { name: 'c', disabled: true })).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('JSON editor'),
    });
    const loaded = await call('mcp:get-settings', {});
    expect(loaded.text).toBe('{ broken');
    const text = '{\n    "mcpServers": {}\n}\n';
    expect(await call('mcp:save-settings', { text, expectedText: loaded.text })).toEqual({ saved: true, problems: [] });
    expect(fs.readFileSync(settingsFile(), 'utf8')).toBe(text);
    expect(await failure('mcp:save-settings', { text, expectedText: '{ broken' })).toMatchObject({ code: 'conflict' });
  });

  it('imports a Claude Desktop config', async () => {
    const text = JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['x'] }, bad: { command: 3 } } });
    const report = await call('mcp:import', { text, fileName: 'claude_desktop_config.json' });
    expect(report).toMatchObject({ added: ['fs'], skipped: [{ name: 'bad' }] });
    expect(Object.keys(onDisk().mcpServers)).toEqual(['fs']);
    expect(await failure('mcp:import', { text: '{}' })).toMatchObject({ code: 'invalid-request' });
  });
});
