// The real gateway over small in-memory deps, in front of the fake OpenAI upstream, driven by the official openai
// SDK. The model name picks what the upstream does (see `gatewayScenarios`).

import OpenAI from 'openai';
import type { UsageRecord } from '../../shared/api/index.js';
import type { Gateway, GatewayOptions } from '../../main/gateway/index.js';
import type { ProviderRegistry } from '../../main/providers/index.js';
import { answer, fail, FakeOpenAI, rejectKey, type Step, type ToolCall } from '../support/fake-openai.js';
import { rejectionOf } from '../support/rejection.js';
import { MemoryKeys, refusingProvider, startTestGateway } from '../support/test-gateway.js';

export const callerSecret = 'sk-sy-v1-caller-secret';
export const otherSecret = 'sk-sy-v1-other-secret';
export const upstreamSecret = 'sk-upstream-secret-abcdef';

export const usage = {
  prompt_tokens: 12,
  completion_tokens: 3,
  total_tokens: 15,
  prompt_tokens_details: { cached_tokens: 4, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 2, audio_tokens: 0 },
};

/** The SDK's error for a call that must fail. */
export function sdkError(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  return rejectionOf(OpenAI.APIError, () => promise);
}

export const weatherCall: ToolCall = { id: 'call_weather1', name: 'get_weather', arguments: '{"city": "Paris"}' };
export const timeCall: ToolCall = { id: 'call_time2', name: 'get_time', arguments: '{"tz": "Europe/Paris"}' };

/** What the upstream does, by model name. */
export const gatewayScenarios: Record<string, Step> = {
  'gpt-test': answer({ content: ['Hello', ', world', '!'], usage }),
  'tool-model': answer({ toolCalls: [weatherCall, timeCall], usage }),
  'reasoning-model': answer({ reasoning: ['Thinking', ' hard.'], content: ['42'], usage }),
  'rate-limited': fail(429, {
    body: { error: { message: 'Rate limit reached for requests', type: 'requests' } },
    headers: { 'retry-after': '7' },
  }),
  'bad-key': rejectKey({ code: 'invalid_api_key' }),
  'server-error': fail(500, { body: { error: { message: 'The server had an error' } } }),
  garbage: answer({ content: ['Partial'], ending: 'garbage' }),
  drop: answer({ content: ['Partial'], ending: 'destroy' }),
  // One chunk, then silence until the caller goes away.
  slow: answer({ content: ['Still'], ending: 'hang' }),
  // Five chunks 30 ms apart, then a normal end.
  'slow-finish': answer({
    content: ['0', '1', '2', '3', '4'],
    chunkDelayMs: 30,
    usageUnasked: true,
    usage,
    form: 'stream',
  }),
  'json-answer': answer({ content: ['plain JSON'], form: 'whole', usage }),
  truncated: answer({ content: ['Partial'], ending: 'truncated' }),
};

export { MemoryKeys };

export interface Harness {
  upstream: FakeOpenAI;
  gateway: Gateway;
  baseURL: string;
  client: OpenAI;
  keys: MemoryKeys;
  usage: UsageRecord[];
  registry: ProviderRegistry;
  close(): Promise<void>;
}

export async function startHarness(options: GatewayOptions = {}): Promise<Harness> {
  const upstream = new FakeOpenAI({ models: Object.keys(gatewayScenarios), byModel: gatewayScenarios });
  const served = await startTestGateway({
    providers: [
      { id: 'fake', baseUrl: `${await upstream.start()}/`, apiKey: upstreamSecret },
      await refusingProvider('down'),
      // A kind no adapter here serves.
      { id: 'claude', kind: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'sk-ant-never-used' },
    ],
    callers: { 'key-1': callerSecret, 'key-2': otherSecret },
    // Retries as in production but quick, and never waiting for an upstream's Retry-After of seconds.
    gateway: { ...options, retry: { baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1_000, ...options.retry } },
  });
  return {
    ...served,
    upstream,
    client: new OpenAI({ baseURL: served.baseURL, apiKey: callerSecret, maxRetries: 0 }),
    async close() {
      await served.close();
      await upstream.close();
    },
  };
}

/** A raw request to the gateway (for what the SDK hides: headers, bodies, bad JSON). */
export async function rawRequest(
  harness: Harness,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Headers; text: string; json: () => unknown }> {
  const response = await fetch(`${harness.baseURL}${path}`, {
    method: init.method ?? 'POST',
    headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json', ...init.headers },
    body: init.body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as unknown };
}
