// The real gateway (the three adapters, prices from the bundled table) in front of one fake upstream per provider
// kind, for the official @google/genai client: `google/gemini-2.5-pro` passes through natively, `oai/gpt-4o` and
// `claude/claude-sonnet-4-5` are translated. The client's base URL is the gateway's root (the SDK adds its API version,
// v1 by default).

import { GoogleGenAI } from '@google/genai';
import { pino } from 'pino';
import type { ProviderInfo, UsageRecord } from '../../../shared/api/index.js';
import { createGateway, type Gateway } from '../../../main/gateway/index.js';
import { createAnthropicAdapter } from '../../../main/providers/anthropic/index.js';
import { createGoogleAdapter } from '../../../main/providers/google/index.js';
import { createOpenAIAdapter, ProviderRegistry, type ProviderSource } from '../../../main/providers/index.js';
import { PriceBook } from '../../../main/providers/pricing/index.js';
import { anthropicKey, FakeAnthropic } from '../../support/fake-anthropic.js';
import { FakeGemini, geminiKey } from '../../support/fake-gemini.js';
import { FakeOpenAI } from '../../support/fake-openai.js';
import { MemoryKeys } from '../../support/test-gateway.js';

export const callerSecret = 'sk-sy-v1-gemini-caller';
export const nativeModel = 'google/gemini-2.5-pro';
export const openAIModel = 'oai/gpt-4o';
export const anthropicModel = 'claude/claude-sonnet-4-5';

export interface GeminiHarness {
  gemini: FakeGemini;
  openai: FakeOpenAI;
  anthropic: FakeAnthropic;
  gateway: Gateway;
  usage: UsageRecord[];
  /** `http://127.0.0.1:<port>`: the gateway's root. */
  root: string;
  /** A client of the gateway (under `/api` when `prefix` says so). */
  client(options?: { apiKey?: string; prefix?: string }): GoogleGenAI;
  close(): Promise<void>;
}

export async function startGeminiHarness(): Promise<GeminiHarness> {
  const gemini = new FakeGemini({ models: ['gemini-2.5-pro'] });
  const openai = new FakeOpenAI({ models: ['gpt-4o'] });
  const anthropic = new FakeAnthropic({ models: ['claude-sonnet-4-5'] });
  const urls = { gemini: await gemini.start(), openai: await openai.start(), anthropic: await anthropic.start() };
  const created_at = '2026-01-01T00:00:00.000Z';
  const provider = (id: string, kind: ProviderInfo['kind'], base_url: string): ProviderInfo => ({
    id,
    kind,
    base_url,
    has_api_key: true,
    created_at,
  });
  const providers = [
    provider('google', 'google', urls.gemini),
    provider('oai', 'openai', urls.openai),
    provider('claude', 'anthropic', urls.anthropic),
  ];
  const apiKeys: Record<string, string> = { google: geminiKey, oai: 'sk-upstream-openai', claude: anthropicKey };
  const source: ProviderSource = {
    listProviders: () => providers,
    getApiKey: async (id) => apiKeys[id] ?? null,
    changeVersion: () => 1,
  };
  const logger = pino({ level: 'silent' });
  const registry = new ProviderRegistry({
    source,
    adapters: [createOpenAIAdapter(), createAnthropicAdapter(), createGoogleAdapter()],
    logger,
  });
  const keys = new MemoryKeys();
  keys.add('key-1', callerSecret);
  const prices = new PriceBook({
    listPrices: () => [],
    setPrice: async () => {},
    removePrice: async () => false,
    changeVersion: () => 1,
  });
  const usage: UsageRecord[] = [];
  const gateway = createGateway(
    {
      keys,
      providers: registry,
      usage: { record: (row) => usage.push(row), price: (target, used) => prices.costOf(target, used) },
      logger,
    },
    { keepAliveMs: 0, retry: { baseDelayMs: 1, maxDelayMs: 5 } },
  );
  const api = await gateway.listen({ host: '127.0.0.1', port: 0 });
  const root = api.replace(/\/api\/v1$/, '');
  return {
    gemini,
    openai,
    anthropic,
    gateway,
    usage,
    root,
    client: ({ apiKey = callerSecret, prefix = '' } = {}) =>
      new GoogleGenAI({ apiKey, httpOptions: { baseUrl: `${root}${prefix}` } }),
    async close() {
      await gateway.close(1_000);
      await registry.close();
      await Promise.all([gemini.close(), openai.close(), anthropic.close()]);
    },
  };
}
