// The real gateway over the real accounts stack (Store on a temporary data dir, ApiKeys, UsageLog, PriceBook,
// Accounts) with an injectable clock, in front of the fake OpenAI upstream, for tests through the HTTP API.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { pino } from 'pino';
import type { CreatedApiKey, KeyRulesChange, ProviderInfo } from '../../shared/api/index.js';
import { Accounts, ApiKeys, UsageLog } from '../../main/accounts/index.js';
import { createGateway, type Gateway } from '../../main/gateway/index.js';
import { createOpenAIAdapter, ProviderRegistry, type ProviderSource } from '../../main/providers/index.js';
import { ModelAliases } from '../../main/providers/model-aliases.js';
import { PriceBook } from '../../main/providers/pricing/index.js';
import { checkDatabaseReadiness, openStore, type Store } from '../../main/store/index.js';
import { startFakeUpstream, type FakeUpstream, type FakeUpstreamOptions } from '../support/fake-openai-upstream.js';

export interface AccountsHarness {
  dataDir: string;
  store: Store;
  keys: ApiKeys;
  usage: UsageLog;
  accounts: Accounts;
  /** Model aliases in the store, applied by the gateway. */
  aliases: ModelAliases;
  /** The clock of key expiry, limit windows and rate limits (rows keep the real time). */
  clock: { now: number };
  /** Read per request by the fake upstream: change usage, failAfterUsage, gate, pieceDelayMs on the fly. */
  upstreamOptions: FakeUpstreamOptions;
  upstream: FakeUpstream;
  gateway: Gateway;
  baseURL: string;
  createKey(name: string, rules?: KeyRulesChange): Promise<CreatedApiKey>;
  client(secret: string, headers?: Record<string, string>): OpenAI;
  /** Chat requests the upstream received so far. */
  chatCalls(): number;
  get(path: string, secret: string): Promise<{ status: number; headers: Headers; body: unknown }>;
  close(): Promise<void>;
}

export const upstreamModels = ['echo-1', 'gpt-4o', 'claude-sonnet-4-20250514', 'priced-by-upstream'];

export async function startAccountsHarness(upstreamOptions: FakeUpstreamOptions = {}): Promise<AccountsHarness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-accounts-'));
  const store = openStore(dataDir);
  const clock = { now: Date.now() };
  const now = () => clock.now;
  const keys = new ApiKeys(store, { now });
  const usage = new UsageLog(store);
  const accounts = new Accounts({ store, keys, usage, prices: new PriceBook(store), now });
  upstreamOptions.models ??= upstreamModels;
  const upstream = await startFakeUpstream(upstreamOptions);
  const created_at = '2026-01-01T00:00:00.000Z';
  const providers: ProviderInfo[] = ['up', 'other'].map((id) => ({
    id,
    kind: 'openai',
    base_url: upstream.baseUrl,
    has_api_key: false,
    created_at,
  }));
  const source: ProviderSource = {
    listProviders: () => providers,
    getApiKey: async () => null,
    changeVersion: () => 1,
  };
  const logger = pino({ level: 'silent' });
  const aliases = new ModelAliases(store);
  const registry = new ProviderRegistry({ source, aliases, adapters: [createOpenAIAdapter()], logger });
  const health = { readiness: () => checkDatabaseReadiness(dataDir) };
  const gateway = createGateway(
    { keys, providers: registry, usage: accounts, accounts, health, logger },
    { keepAliveMs: 0 },
  );
  const baseURL = await gateway.listen({ host: '127.0.0.1', port: 0 });

  return {
    dataDir,
    store,
    keys,
    usage,
    accounts,
    aliases,
    clock,
    upstreamOptions,
    upstream,
    gateway,
    baseURL,
    createKey: (name, rules) => keys.create(name, rules),
    client: (secret, headers) => new OpenAI({ baseURL, apiKey: secret, maxRetries: 0, defaultHeaders: headers }),
    chatCalls: () => upstream.chatRequests().length,
    async get(urlPath, secret) {
      const response = await fetch(`${baseURL}${urlPath}`, { headers: { authorization: `Bearer ${secret}` } });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as unknown) : null };
    },
    async close() {
      await gateway.close(1_000);
      await registry.close();
      await upstream.close();
      accounts.close();
      await usage.close();
      await keys.close();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SdkFailure {
  status: number;
  /** The `error` object of our envelope: {code, message, metadata}. */
  error: { code: number; message: string; metadata: Record<string, unknown> };
  headers: Record<string, string>;
}

/** How an openai SDK call failed. */
export function errorOf(error: unknown): SdkFailure {
  if (!(error instanceof OpenAI.APIError)) throw error;
  const headers = Object.fromEntries(new Headers(error.headers as ConstructorParameters<typeof Headers>[0]).entries());
  return { status: error.status ?? 0, error: error.error as SdkFailure['error'], headers };
}

/** Runs `call` and returns how it failed (or throws when it did not). */
export async function failure(call: () => Promise<unknown>): Promise<SdkFailure> {
  try {
    await call();
  } catch (error) {
    return errorOf(error);
  }
  throw new Error('expected the request to fail');
}
