// A real gateway in front of two fake OpenAI-compatible upstreams, `primary` and `backup`, whose chat answers
// follow a script (`setup.primary.script(fail(503), answer(…))`, one step per request) and are otherwise a normal
// answer naming the server; and a provider `down` that refuses connections. For the resilience and client tests.

import OpenAI from 'openai';
import { pino } from 'pino';
import type { ProviderInfo, UsageRecord } from '../../shared/api/index.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../main/gateway/index.js';
import {
  createOpenAIAdapter,
  ProviderRegistry,
  type OpenAIAdapterOptions,
  type ProviderSource,
} from '../../main/providers/index.js';
import { callerSecret, MemoryKeys } from '../gateway/harness.js';
import { answer, FakeOpenAI } from '../support/fake-openai.js';
import { closedPort } from '../support/recording-server.js';

/** One chunk, then the connection drops. */
export const dropAfterFirstChunk = () => answer({ content: ['Par'], ending: 'destroy' });

/** An upstream listing `models` that answers "answer from <name>" unless scripted otherwise. */
export function namedUpstream(name: string, models: string[] = ['m1', 'm2']): FakeOpenAI {
  return new FakeOpenAI({ models, fallback: answer(`answer from ${name}`) });
}

export const primarySecret = 'sk-primary-upstream-secret-1234';

export interface ResilienceGateway {
  primary: FakeOpenAI;
  backup: FakeOpenAI;
  baseURL: string;
  client: OpenAI;
  usage: UsageRecord[];
  /** The gateway's warnings (failed attempts, with the backoff it chose), parsed. */
  warnings: Record<string, unknown>[];
  gateway: Gateway;
  close(): Promise<void>;
}

/** Providers `primary` and `backup` (scripted) and `down` (refuses connections) behind a real gateway. */
export async function startResilienceGateway(
  options: GatewayOptions = {},
  adapterOptions: OpenAIAdapterOptions = {},
): Promise<ResilienceGateway> {
  const primary = namedUpstream('primary');
  const backup = namedUpstream('backup');
  const created_at = '2026-01-01T00:00:00.000Z';
  const providers: ProviderInfo[] = [
    { id: 'primary', kind: 'openai', base_url: await primary.start(), has_api_key: true, created_at },
    { id: 'backup', kind: 'openai', base_url: await backup.start(), has_api_key: false, created_at },
    {
      id: 'down',
      kind: 'openai',
      base_url: `http://127.0.0.1:${await closedPort()}/v1`,
      has_api_key: false,
      created_at,
    },
  ];
  const source: ProviderSource = {
    listProviders: () => providers,
    getApiKey: async (id) => (id === 'primary' ? primarySecret : null),
    changeVersion: () => 1,
  };
  const warnings: Record<string, unknown>[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
  const registry = new ProviderRegistry({ source, adapters: [createOpenAIAdapter(adapterOptions)], logger });
  const keys = new MemoryKeys();
  keys.add('key-1', callerSecret);
  const usage: UsageRecord[] = [];
  const gateway = createGateway(
    { keys, providers: registry, usage: { record: (row) => usage.push(row) }, logger },
    {
      ...options,
      retry: { baseDelayMs: 10, maxDelayMs: 40, ...options.retry },
    },
  );
  const baseURL = await gateway.listen({ host: '127.0.0.1', port: 0 });
  return {
    primary,
    backup,
    baseURL,
    client: new OpenAI({ baseURL, apiKey: callerSecret, maxRetries: 0 }),
    usage,
    warnings,
    gateway,
    async close() {
      await gateway.close(1_000);
      await registry.close();
      await primary.close();
      await backup.close();
    },
  };
}
