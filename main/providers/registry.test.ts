import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { ModelInfo, ProviderInfo } from '../../shared/api/index.js';
import type { ProviderAdapter } from './adapter.js';
import { ProviderRegistry, type DiscoveredProviderSource, type ProviderSource } from './registry.js';
import { rejection } from './test-support.js';

const logger = pino({ level: 'silent' });

function provider(id: string, kind: ProviderInfo['kind'] = 'openai', hasKey = true): ProviderInfo {
  return { id, kind, base_url: `http://${id}.test/v1`, has_api_key: hasKey, created_at: '2026-01-01T00:00:00Z' };
}

class FakeAdapter implements ProviderAdapter {
  readonly kind = 'openai' as const;
  models = new Map<string, string[] | Error | 'hang'>();
  calls: { provider: string; apiKey: string | null }[] = [];

  async listModels(
    target: { provider: ProviderInfo; apiKey: string | null },
    signal: AbortSignal,
  ): Promise<ModelInfo[]> {
    this.calls.push({ provider: target.provider.id, apiKey: target.apiKey });
    const models = this.models.get(target.provider.id) ?? [];
    if (models === 'hang') {
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    }
    if (models instanceof Error) throw models;
    return models.map((id) => ({ id, name: id }));
  }
  streamChat(): never {
    throw new Error('not used');
  }
  completeChat(): never {
    throw new Error('not used');
  }
}

function setup(providers: ProviderInfo[], options: { resolveWaitMs?: number } = {}) {
  let version = 1;
  let now = 1_000_000;
  let listCalls = 0;
  const list = [...providers];
  const source: ProviderSource = {
    listProviders: () => {
      listCalls += 1;
      return list;
    },
    getApiKey: async (id) => `key-of-${id}`,
    changeVersion: () => version,
  };
  const adapter = new FakeAdapter();
  const registry = new ProviderRegistry({
    source,
    adapters: [adapter],
    logger,
    now: () => now,
    resolveWaitMs: options.resolveWaitMs ?? 3_000,
  });
  return {
    registry,
    adapter,
    list,
    bump: () => (version += 1),
    advance: (ms: number) => (now += ms),
    listCalls: () => listCalls,
  };
}

describe('ProviderRegistry.resolve', () => {
  it('splits on the first slash and returns the adapter, key and upstream model name', async () => {
    const { registry, adapter } = setup([provider('openrouter')]);
    adapter.models.set('openrouter', ['anthropic/claude-sonnet-4']);
    const { adapter: chosen, target } = await registry.resolve('openrouter/anthropic/claude-sonnet-4');
    expect(chosen).toBe(adapter);
    expect(target).toEqual({
      provider: { ...provider('openrouter'), source: 'configured' },
      apiKey: 'key-of-openrouter',
      model: 'anthropic/claude-sonnet-4',
    });
  });

  it.each(['gpt-4o', '/gpt-4o', 'openai/', ''])('rejects %j with a 400', async (model) => {
    const { registry } = setup([provider('openai')]);
    const error = await rejection(() => registry.resolve(model));
    expect(error.status).toBe(400);
    expect(error.message).toContain('<provider>/<model>');
  });

  it('answers 404 for an unknown provider, naming the configured ones', async () => {
    const { registry } = setup([provider('openai'), provider('groq')]);
    const error = await rejection(() => registry.resolve('nope/x'));
    expect(error.status).toBe(404);
    expect(error.message).toBe('Unknown provider "nope". Configured providers: groq, openai.');
  });

  it('answers 501 for a provider kind without an adapter', async () => {
    const { registry } = setup([provider('claude', 'anthropic')]);
    const error = await rejection(() => registry.resolve('claude/claude-sonnet-4'));
    expect(error.status).toBe(501);
    expect(error.message).toContain('"anthropic"');
  });

  it('answers 404 for a model missing from a known list, accepting Ollama `:latest` names', async () => {
    const { registry, adapter } = setup([provider('ollama', 'openai', false)]);
    adapter.models.set('ollama', ['llama3.2:latest', 'qwen3:8b']);
    expect((await rejection(() => registry.resolve('ollama/mistral'))).status).toBe(404);
    await expect(registry.resolve('ollama/llama3.2')).resolves.toMatchObject({ target: { apiKey: null } });
    await expect(registry.resolve('ollama/qwen3:8b')).resolves.toBeDefined();
    expect(adapter.calls[0]).toEqual({ provider: 'ollama', apiKey: null });
  });

  it('passes the request through when the model list cannot be fetched, and caches the failure briefly', async () => {
    const { registry, adapter, advance } = setup([provider('flaky')]);
    adapter.models.set('flaky', new Error('ECONNREFUSED'));
    await expect(registry.resolve('flaky/any')).resolves.toBeDefined();
    await registry.resolve('flaky/other');
    expect(adapter.calls).toHaveLength(1);
    advance(31_000);
    adapter.models.set('flaky', ['known']);
    expect((await rejection(() => registry.resolve('flaky/other'))).status).toBe(404);
    expect(adapter.calls).toHaveLength(2);
  });

  it('does not wait longer than resolveWaitMs for a slow list', async () => {
    const { registry, adapter } = setup([provider('slow')], { resolveWaitMs: 20 });
    adapter.models.set('slow', 'hang');
    await expect(registry.resolve('slow/any')).resolves.toBeDefined();
  });

  it('caches a list for its TTL and refetches a missing model at most once per 30 s', async () => {
    const { registry, adapter, advance } = setup([provider('openai')]);
    adapter.models.set('openai', ['gpt-4o']);
    await registry.resolve('openai/gpt-4o');
    await registry.resolve('openai/gpt-4o');
    expect(adapter.calls).toHaveLength(1);
    // A model added upstream after the list was fetched is found by one refetch.
    adapter.models.set('openai', ['gpt-4o', 'gpt-5']);
    advance(60_000);
    await registry.resolve('openai/gpt-5');
    expect(adapter.calls).toHaveLength(2);
    await rejection(() => registry.resolve('openai/nope'));
    expect(adapter.calls).toHaveLength(2);
    advance(5 * 60_000);
    await registry.resolve('openai/gpt-4o');
    expect(adapter.calls).toHaveLength(3);
  });

  it('reloads providers only when the change version moves', async () => {
    const { registry, adapter, list, bump, listCalls } = setup([provider('openai')]);
    adapter.models.set('openai', ['gpt-4o']);
    adapter.models.set('groq', ['llama']);
    await registry.resolve('openai/gpt-4o');
    await registry.resolve('openai/gpt-4o');
    expect(listCalls()).toBe(1);
    list.push(provider('groq'));
    expect((await rejection(() => registry.resolve('groq/llama'))).status).toBe(404);
    bump();
    await expect(registry.resolve('groq/llama')).resolves.toBeDefined();
    expect(listCalls()).toBe(2);
    // The unchanged provider kept its cached list.
    expect(adapter.calls.filter((call) => call.provider === 'openai')).toHaveLength(1);
  });
});

describe('ProviderRegistry.listModels', () => {
  it('lists every provider with prefixed ids; a failing provider contributes nothing', async () => {
    const { registry, adapter } = setup([provider('openai'), provider('down'), provider('claude', 'anthropic')]);
    adapter.models.set('openai', ['gpt-4o', 'gpt-4o-mini']);
    adapter.models.set('down', new Error('ECONNREFUSED'));
    const models = await registry.listModels();
    expect(models.map((model) => model.id)).toEqual(['openai/gpt-4o', 'openai/gpt-4o-mini']);
    await registry.listModels();
    expect(adapter.calls).toHaveLength(2); // both lists cached, the failure too
  });

  it('shares one fetch between concurrent callers', async () => {
    const { registry, adapter } = setup([provider('openai')]);
    adapter.models.set('openai', ['gpt-4o']);
    await Promise.all([registry.listModels(), registry.resolve('openai/gpt-4o'), registry.listModels()]);
    expect(adapter.calls).toHaveLength(1);
  });
});

/** A local source whose servers come and go as the test says, counting its looks. */
class FakeLocal implements DiscoveredProviderSource {
  running = new Set<string>();
  found = new Set<string>();
  refreshes: (string | undefined)[] = [];
  private version = 0;

  listProviders(): ProviderInfo[] {
    return [...this.found].map((id) => ({ ...provider(id, 'openai', false), source: 'local' as const }));
  }
  async getApiKey(): Promise<string | null> {
    return null;
  }
  changeVersion(): number {
    return this.version;
  }
  mayProvide(id: string): boolean {
    return id === 'ollama' || id === 'lmstudio';
  }
  async refresh(id?: string): Promise<void> {
    this.refreshes.push(id);
    const before = [...this.found].join();
    this.found = new Set(
      [...this.running].filter((running) => id === undefined || running === id || this.found.has(running)),
    );
    if ([...this.found].join() !== before) this.version += 1;
  }
  describeAbsent(id: string): string | null {
    return this.found.has(id) ? null : `No ${id} server answered.`;
  }
}

function setupSources(configured: ProviderInfo[]) {
  const adapter = new FakeAdapter();
  const environmentKeys = new Map([
    ['openai', 'env-openai-key'],
    ['openrouter', 'env-openrouter-key'],
  ]);
  const environment: ProviderSource = {
    listProviders: () => [
      { ...provider('openai'), base_url: 'https://api.openai.com/v1', source: 'environment' },
      { ...provider('openrouter'), source: 'environment' },
      { ...provider('ollama'), source: 'environment' },
    ],
    getApiKey: async (id) => environmentKeys.get(id) ?? null,
    changeVersion: () => 0,
  };
  const local = new FakeLocal();
  const registry = new ProviderRegistry({
    source: { listProviders: () => configured, getApiKey: async (id) => `db-key-of-${id}`, changeVersion: () => 1 },
    environment,
    local,
    adapters: [adapter],
    logger,
  });
  return { registry, adapter, local };
}

describe('ProviderRegistry sources', () => {
  it('lets a configured provider win over the environment, which wins over a local server', async () => {
    const { registry, adapter, local } = setupSources([provider('openai')]);
    local.running.add('ollama');
    local.running.add('lmstudio');
    const listed = await registry.listProviders();
    expect(listed.map((info) => [info.id, info.source])).toEqual([
      ['openai', 'configured'],
      ['openrouter', 'environment'],
      ['ollama', 'environment'],
      ['lmstudio', 'local'],
    ]);
    adapter.models.set('openai', ['gpt-4o']);
    adapter.models.set('openrouter', ['x/y']);
    expect((await registry.resolve('openai/gpt-4o')).target.apiKey).toBe('db-key-of-openai');
    expect((await registry.resolve('openrouter/x/y')).target.apiKey).toBe('env-openrouter-key');
    expect((await registry.resolve('openai/gpt-4o')).target.provider.base_url).toBe('http://openai.test/v1');
  });

  it('looks for a local server when a request names it, and says where it looked when it is not there', async () => {
    const { registry, adapter, local } = setupSources([]);
    const error = await rejection(() => registry.resolve('lmstudio/qwen'));
    expect(error.status).toBe(404);
    expect(error.message).toBe(
      'Unknown provider "lmstudio". Configured providers: ollama, openai, openrouter. No lmstudio server answered.',
    );
    expect(local.refreshes).toEqual(['lmstudio']);
    local.running.add('lmstudio');
    adapter.models.set('lmstudio', ['qwen']);
    const { target } = await registry.resolve('lmstudio/qwen');
    expect(target).toMatchObject({ apiKey: null, provider: { id: 'lmstudio', source: 'local' } });
    expect(local.refreshes).toEqual(['lmstudio', 'lmstudio']);
    // Known now: no more looking, and a request for another provider never looks.
    await registry.resolve('lmstudio/qwen');
    adapter.models.set('openrouter', ['x/y']);
    await registry.resolve('openrouter/x/y');
    await rejection(() => registry.resolve('nope/x'));
    expect(local.refreshes).toEqual(['lmstudio', 'lmstudio']);
  });

  it('lists the models of local servers found when listing', async () => {
    const { registry, adapter, local } = setupSources([]);
    local.running.add('lmstudio');
    adapter.models.set('lmstudio', ['qwen']);
    const models = await registry.listModels();
    expect(models.map((model) => model.id)).toContain('lmstudio/qwen');
    expect(local.refreshes).toEqual([undefined]);
  });
});
