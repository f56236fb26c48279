import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api/index.js';
import { rejectionOf } from '../../test/support/rejection.js';
import { defaultKeyRules, openStore, type Store } from '../store/index.js';
import { ApiKeys, applyRulesChange, modelAllowed } from './index.js';
import { useStoreEachTest } from '../../test/support/store-each-test.js';

const temp = useStoreEachTest();
let store: Store;
let keys: ApiKeys;
const clock = { now: Date.parse('2026-03-10T12:00:00Z') };

beforeEach(() => {
  store = temp.store;
  keys = new ApiKeys(store, { now: () => clock.now });
});

afterEach(async () => {
  await keys.close();
});

const thrown = (action: () => unknown) => rejectionOf(ApiError, action);

describe('applyRulesChange', () => {
  it('takes MCP hub access as servers, server__tool names or *, and null to take it away', async () => {
    const rules = applyRulesChange(defaultKeyRules, { allowed_mcp: ['fs', 'everything__echo', 'fs'] });
    expect(rules.allowedMcp).toEqual(['fs', 'everything__echo']);
    expect(applyRulesChange(rules, { allowed_mcp: null }).allowedMcp).toBeNull();
    expect(defaultKeyRules.allowedMcp).toBeNull();
    expect((await thrown(() => applyRulesChange(defaultKeyRules, { allowed_mcp: ['two words'] }))).message).toBe(
      'allowed_mcp: "two words" is not an MCP server, server__tool or *.',
    );
    expect((await thrown(() => applyRulesChange(defaultKeyRules, { allowed_mcp: [] }))).status).toBe(400);
  });

  it('converts USD and ISO times to their stored forms and leaves absent fields alone', () => {
    const rules = applyRulesChange(defaultKeyRules, {
      limit: 2.5,
      limit_reset: 'monthly',
      allowed_models: ['openai/gpt-4o', 'anthropic/*', 'openrouter/openai/*', 'openai/gpt-4o'],
      expires_at: '2026-04-01',
      requests_per_minute: 60,
    });
    expect(rules).toEqual({
      ...defaultKeyRules,
      limitNanos: 2_500_000_000,
      limitReset: 'monthly',
      allowedModels: ['openai/gpt-4o', 'anthropic/*', 'openrouter/openai/*'],
      expiresAt: Date.parse('2026-04-01T00:00:00Z'),
      rpm: 60,
    });
    expect(applyRulesChange(rules, { limit: null, expires_at: null, requests_per_minute: null })).toEqual({
      ...rules,
      limitNanos: null,
      expiresAt: null,
      rpm: null,
    });
  });

  it.each([
    [{ limit: -1 }, /limit/],
    [{ limit_reset: 'hourly' }, /limit_reset/],
    [{ allowed_models: [] }, /non-empty/],
    [{ allowed_models: ['gpt-4o'] }, /provider\/model/],
    [{ allowed_models: ['openai/gpt*'] }, /provider\/model/],
    [{ allowed_providers: ['Bad Id'] }, /provider id/],
    [{ expires_at: 'tomorrow' }, /expires_at/],
    [{ requests_per_minute: 0 }, /requests_per_minute/],
    [{ tokens_per_minute: 1.5 }, /tokens_per_minute/],
    [{ management: 'yes' }, /management/],
  ])('rejects %j with ApiError 400', async (change, message) => {
    const error = await thrown(() => applyRulesChange(defaultKeyRules, change as never));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(message);
  });
});

describe('modelAllowed', () => {
  const rules = (allowedModels: string[] | null, allowedProviders: string[] | null) => ({
    allowedModels,
    allowedProviders,
  });

  it('allows everything without lists', () => {
    expect(modelAllowed(rules(null, null), 'any/model')).toBe(true);
  });

  it('matches exact ids and provider/* prefixes, and providers by id; either list admits', () => {
    const both = rules(['openai/gpt-4o', 'anthropic/*', 'openrouter/openai/*'], ['local']);
    expect(modelAllowed(both, 'openai/gpt-4o')).toBe(true);
    expect(modelAllowed(both, 'openai/gpt-4o-mini')).toBe(false);
    expect(modelAllowed(both, 'anthropic/claude-sonnet-4')).toBe(true);
    expect(modelAllowed(both, 'anthropic/')).toBe(false);
    expect(modelAllowed(both, 'anthropicx/claude')).toBe(false);
    expect(modelAllowed(both, 'openrouter/openai/o3')).toBe(true);
    expect(modelAllowed(both, 'openrouter/anthropic/claude-sonnet-4')).toBe(false);
    expect(modelAllowed(both, 'local/llama3')).toBe(true);
    expect(modelAllowed(rules(null, ['local']), 'openai/gpt-4o')).toBe(false);
  });
});

describe('ApiKeys with rules', () => {
  it('creates a key with rules and shows them in get and list', async () => {
    const created = await keys.create('limited', { limit: 1, limit_reset: 'daily', management: false });
    expect(created).toMatchObject({ limit: 1, limit_reset: 'daily', management: false, disabled: false });
    expect(keys.get(created.id)).toMatchObject({ limit: 1, management: false });
    expect(keys.list()[0]).toMatchObject({ id: created.id, limit: 1, limit_reset: 'daily' });
    expect(keys.rulesOf(created.id).limitNanos).toBe(1_000_000_000);
  });

  it('stores nothing when a rule is invalid', async () => {
    expect((await thrown(() => keys.create('bad', { limit: -5 }))).status).toBe(400);
    expect(keys.list()).toEqual([]);
  });

  it('gives keys without rules (created before rules existed) management and no limits', async () => {
    await store.insertKey({
      id: '0123456789abcdef',
      name: 'legacy',
      label: 'l',
      secretHash: Buffer.alloc(32),
      createdAt: 1,
    });
    expect(keys.get('0123456789abcdef')).toMatchObject({ management: true, limit: null, allowed_models: null });
  });

  it('creates keys without the management right unless asked for it', async () => {
    expect(await keys.create('script')).toMatchObject({ management: false });
    expect(await keys.create('admin', { management: true })).toMatchObject({ management: true });
    expect(keys.rulesOf('ffffffffffffffff').management).toBe(false);
  });

  it('rejects a disabled key with its own 401 until it is enabled again', async () => {
    const created = await keys.create('k');
    await keys.update(created.id, { disabled: true });
    const error = await thrown(() => keys.authenticate(created.key));
    expect(error.status).toBe(401);
    expect(error.message).toBe('This API key is disabled.');
    expect(error.toBody().error.metadata).toEqual({});
    await keys.update(created.id, { disabled: false });
    expect(keys.authenticate(created.key)?.id).toBe(created.id);
  });

  it('rejects a key after its expiry with 401, and a wrong secret still just gets null', async () => {
    const created = await keys.create('k', { expires_at: '2026-03-10T13:00:00Z' });
    expect(keys.authenticate(created.key)).not.toBeNull();
    clock.now = Date.parse('2026-03-10T13:00:00Z');
    expect(await thrown(() => keys.authenticate(created.key))).toMatchObject({
      status: 401,
      message: 'This API key expired at 2026-03-10T13:00:00.000Z.',
    });
    expect(keys.authenticate(created.key.slice(0, -1) + 'x')).toBeNull();
    await keys.update(created.id, { expires_at: null });
    expect(keys.authenticate(created.key)).not.toBeNull();
    clock.now = Date.parse('2026-03-10T12:00:00Z');
  });

  it('applies a rule change made through another Store (another process) at the next request', async () => {
    const created = await keys.create('k', { management: true });
    expect(keys.rulesOf(created.id).management).toBe(true);
    const other = openStore(temp.dataDir);
    try {
      await new ApiKeys(other).update(created.id, { management: false, disabled: true });
      expect(keys.rulesOf(created.id).management).toBe(false);
      expect((await thrown(() => keys.authenticate(created.key))).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('update: 404 for an unknown key, 400 for an invalid rule that leaves the rules as they were', async () => {
    expect((await thrown(() => keys.update('nope', { disabled: true }))).status).toBe(404);
    const created = await keys.create('k', { requests_per_minute: 5 });
    expect((await thrown(() => keys.update(created.id, { requests_per_minute: 5, limit: -1 }))).status).toBe(400);
    expect(keys.get(created.id)?.requests_per_minute).toBe(5);
  });
});
