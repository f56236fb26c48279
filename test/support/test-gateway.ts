// The real gateway (createGateway + ProviderRegistry + the adapters) over in-memory caller keys and usage rows, in
// front of the providers a test names: the composition every gateway-level harness shares. Each harness adds its
// fakes, secrets and client.

import { pino, type Logger } from 'pino';
import type { ApiKeyInfo, ProviderInfo, UsageRecord } from '../../shared/api/index.js';
import {
  createGateway,
  type Gateway,
  type GatewayKeys,
  type GatewayOptions,
  type GatewayUsage,
} from '../../main/gateway/index.js';
import {
  createOpenAIAdapter,
  ProviderRegistry,
  type ProviderAdapter,
  type ProviderSource,
} from '../../main/providers/index.js';
import { closedPort } from './recording-server.js';

export class MemoryKeys implements GatewayKeys {
  private readonly bySecret = new Map<string, ApiKeyInfo>();

  add(id: string, secret: string): void {
    this.bySecret.set(secret, {
      id,
      name: id,
      label: `${secret.slice(0, 9)}…`,
      created_at: '2026-01-01T00:00:00.000Z',
      last_used_at: null,
    });
  }
  authenticate(secret: string): ApiKeyInfo | null {
    return this.bySecret.get(secret) ?? null;
  }
  list(): ApiKeyInfo[] {
    return [...this.bySecret.values()];
  }
  async delete(id: string): Promise<boolean> {
    for (const [secret, key] of this.bySecret) {
      if (key.id === id) return this.bySecret.delete(secret);
    }
    return false;
  }
}

export interface TestProvider {
  id: string;
  /** Default `openai`. */
  kind?: ProviderInfo['kind'];
  baseUrl: string;
  /** The provider's API key; none by default. */
  apiKey?: string;
}

/** A provider whose port refuses connections. */
export async function refusingProvider(id = 'down'): Promise<TestProvider> {
  return { id, baseUrl: `http://127.0.0.1:${await closedPort()}/v1` };
}

export interface TestGatewayOptions {
  providers: TestProvider[];
  /** Default: the OpenAI adapter alone. */
  adapters?: ProviderAdapter[];
  /** Caller keys: id → secret. */
  callers: Record<string, string>;
  gateway?: GatewayOptions;
  /** Default: silent. */
  logger?: Logger;
  /** Default 127.0.0.1. */
  host?: string;
  /** Prices each request's usage (the accounts' price book in production); without it costs stay as upstreams say. */
  price?: GatewayUsage['price'];
  /** Adds to the server before it listens (routes must be registered by then), e.g. the UI's bridge. */
  beforeListen?: (gateway: Gateway) => Promise<void>;
}

export interface TestGateway {
  gateway: Gateway;
  registry: ProviderRegistry;
  keys: MemoryKeys;
  usage: UsageRecord[];
  /** `http://<host>:<port>/api/v1` */
  baseURL: string;
  /** Closes the gateway (letting streams finish for `graceMs`) and the registry; the fakes are the caller's. */
  close(graceMs?: number): Promise<void>;
}

export async function startTestGateway(options: TestGatewayOptions): Promise<TestGateway> {
  const created_at = '2026-01-01T00:00:00.000Z';
  const providers: ProviderInfo[] = options.providers.map((provider) => ({
    id: provider.id,
    kind: provider.kind ?? 'openai',
    base_url: provider.baseUrl,
    has_api_key: provider.apiKey !== undefined,
    created_at,
  }));
  const apiKeys = new Map(options.providers.map((provider) => [provider.id, provider.apiKey ?? null]));
  const source: ProviderSource = {
    listProviders: () => providers,
    getApiKey: async (id) => apiKeys.get(id) ?? null,
    changeVersion: () => 1,
  };
  const logger = options.logger ?? pino({ level: 'silent' });
  const registry = new ProviderRegistry({ source, adapters: options.adapters ?? [createOpenAIAdapter()], logger });
  const keys = new MemoryKeys();
  for (const [id, secret] of Object.entries(options.callers)) keys.add(id, secret);
  const usage: UsageRecord[] = [];
  const gateway = createGateway(
    { keys, providers: registry, usage: { record: (row) => usage.push(row), price: options.price }, logger },
    options.gateway,
  );
  await options.beforeListen?.(gateway);
  const baseURL = await gateway.listen({ host: options.host ?? '127.0.0.1', port: 0 });
  return {
    gateway,
    registry,
    keys,
    usage,
    baseURL,
    async close(graceMs = 1_000) {
      await gateway.close(graceMs);
      await registry.close();
    },
  };
}
