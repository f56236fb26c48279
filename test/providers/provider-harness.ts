// The real gateway over in-memory deps, with the Anthropic and Google adapters in its registry, in front of fake
// Anthropic and Gemini servers on 127.0.0.1, driven by the official openai SDK.

import OpenAI from 'openai';
import { pino } from 'pino';
import { expect } from 'vitest';
import type { ProviderInfo, ReasoningDetail, UsageRecord } from '../../shared/api/index.js';
import { createGateway, type Gateway } from '../../main/gateway/index.js';
import { createAnthropicAdapter } from '../../main/providers/anthropic/index.js';
import { createGoogleAdapter } from '../../main/providers/google/index.js';
import { ProviderRegistry, type ProviderSource } from '../../main/providers/index.js';
import { callerSecret, MemoryKeys } from '../gateway/harness.js';
import { anthropicKey, FakeAnthropic } from './fake-anthropic.js';
import { FakeGemini, geminiKey } from './fake-gemini.js';

export interface ProviderHarness {
  anthropic: FakeAnthropic;
  gemini: FakeGemini;
  baseURL: string;
  client: OpenAI;
  usage: UsageRecord[];
  close(): Promise<void>;
}

export async function startProviderHarness(): Promise<ProviderHarness> {
  const anthropic = new FakeAnthropic();
  const gemini = new FakeGemini();
  const anthropicUrl = await anthropic.start();
  const geminiUrl = await gemini.start();
  const created_at = '2026-01-01T00:00:00.000Z';
  const provider = (id: string, kind: ProviderInfo['kind'], base_url: string): ProviderInfo => ({
    id,
    kind,
    base_url,
    has_api_key: true,
    created_at,
  });
  const providers: ProviderInfo[] = [
    provider('claude', 'anthropic', anthropicUrl),
    provider('claude-v1', 'anthropic', `${anthropicUrl}/v1/`),
    provider('claude-badkey', 'anthropic', anthropicUrl),
    provider('gemini', 'google', geminiUrl),
    provider('gemini-badkey', 'google', `${geminiUrl}/v1beta`),
  ];
  const keys: Record<string, string> = {
    claude: anthropicKey,
    'claude-v1': anthropicKey,
    'claude-badkey': 'sk-ant-wrong-key',
    gemini: geminiKey,
    'gemini-badkey': 'AIzaSy-wrong-key',
  };
  const source: ProviderSource = {
    listProviders: () => providers,
    getApiKey: async (id) => keys[id] ?? null,
    changeVersion: () => 1,
  };
  let toolCallCounter = 0;
  const registry = new ProviderRegistry({
    source,
    adapters: [
      createAnthropicAdapter(),
      createGoogleAdapter({ createToolCallId: () => `call_gemini_${++toolCallCounter}` }),
    ],
    logger: pino({ level: 'silent' }),
  });
  const callerKeys = new MemoryKeys();
  callerKeys.add('key-1', callerSecret);
  const usage: UsageRecord[] = [];
  const gateway: Gateway = createGateway(
    {
      keys: callerKeys,
      providers: registry,
      usage: { record: (row) => usage.push(row) },
      logger: pino({ level: 'silent' }),
    },
    // Retries as in production but quick, never waiting for an upstream's Retry-After of seconds.
    { retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 1_000 } },
  );
  const baseURL = await gateway.listen({ host: '127.0.0.1', port: 0 });
  return {
    anthropic,
    gemini,
    baseURL,
    client: new OpenAI({ baseURL, apiKey: callerSecret, maxRetries: 0 }),
    usage,
    async close() {
      await gateway.close(1_000);
      await registry.close();
      await anthropic.close();
      await gemini.close();
    },
  };
}

/** A raw request to the gateway (for what the SDK hides: response headers, the exact SSE lines). */
export async function rawChat(harness: ProviderHarness, body: unknown) {
  const response = await fetch(`${harness.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as unknown };
}

/** A 1×1 PNG, for image parts. */
export const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Chunks as the SDK yields them, with the fields it does not type (reasoning, reasoning_details). */
export type Chunk = OpenAI.ChatCompletionChunk & {
  usage?: OpenAI.CompletionUsage & { prompt_tokens_details?: { cache_write_tokens?: number } };
  choices: (OpenAI.ChatCompletionChunk.Choice & {
    native_finish_reason?: string | null;
    delta: { reasoning?: string; reasoning_details?: ReasoningDetail[] };
  })[];
};

export async function collect(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for await (const chunk of stream) chunks.push(chunk as Chunk);
  return chunks;
}

/** The SDK's error for a request that must fail. */
export async function sdkError(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}
