// The real gateway over in-memory deps, with the Anthropic and Google adapters in its registry, in front of fake
// Anthropic and Gemini servers on 127.0.0.1, driven by the official openai SDK. The model name picks what the fake
// does; any other model answers with text, or with tool calls when tools are offered and none were answered yet.

import OpenAI from 'openai';
import { expect } from 'vitest';
import type { ReasoningDetail, UsageRecord } from '../../shared/api/index.js';
import { createAnthropicAdapter } from '../../main/providers/anthropic/index.js';
import { createGoogleAdapter } from '../../main/providers/google/index.js';
import { callerSecret } from '../gateway/harness.js';
import * as anthropic from '../support/fake-anthropic.js';
import * as gemini from '../support/fake-gemini.js';
import type { Step } from '../support/recording-server.js';
import { startTestGateway } from '../support/test-gateway.js';
import { anthropicText, geminiText, wantsTools } from '../support/three-kinds.js';

const cutBefore = 'event: content_block_stop';
const anthropicSteps = {
  'claude-sonnet-4-20250514': undefined,
  'claude-2.1': undefined,
  'claude-rate-limited': anthropic.fail(
    429,
    'rate_limit_error',
    'Number of request tokens has exceeded your rate limit',
    { 'retry-after': '17' },
  ),
  'claude-overloaded': anthropic.fail(529, 'overloaded_error', 'Overloaded'),
  'claude-mid-stream-error': anthropic.answer({ stream: 'anthropic-overloaded-mid-stream.sse.txt' }),
  'claude-dropped': anthropic.answer({ cutBefore, then: 'destroy' }),
  // The first text, then silence until the gateway goes away.
  'claude-slow': anthropic.answer({ cutBefore, then: 'hang' }),
};

const anthropicAnswer = anthropic.answer((request) => {
  const body = request.body as { tools?: unknown; messages?: { content: { type: string }[] }[] };
  return wantsTools(body.tools, body.messages?.at(-1)?.content)
    ? {
        stream: 'anthropic-thinking-tool-calls.sse.txt',
        whole: JSON.parse(anthropic.anthropicFixture('anthropic-message.json')),
      }
    : { stream: 'anthropic-text.sse.txt', whole: anthropicText };
});

const geminiSteps = {
  'gemini-2.5-flash': undefined,
  'gemini-1.0-pro': undefined,
  'gemini-rate-limited': gemini.fail(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota.', [
    { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '23s' },
  ]),
  'gemini-overloaded': gemini.fail(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
  'gemini-mid-stream-error': gemini.answer({ stream: 'gemini-overloaded-mid-stream.sse.txt' }),
  'gemini-truncated': gemini.answer({ truncated: true }),
};

const geminiAnswer = gemini.answer((request) => {
  const body = request.body as { tools?: unknown; contents?: { parts: { functionResponse?: unknown }[] }[] };
  return wantsTools(body.tools, body.contents?.at(-1)?.parts)
    ? {
        stream: 'gemini-thinking-tool-calls.sse.txt',
        whole: JSON.parse(gemini.geminiFixture('gemini-response.json')),
      }
    : { stream: 'gemini-text.sse.txt', whole: geminiText };
});

/** The steps for the models that do something particular; `undefined` ones answer normally. */
function byModel(steps: Record<string, Step | undefined>): Record<string, Step> {
  return Object.fromEntries(Object.entries(steps).filter((entry): entry is [string, Step] => entry[1] !== undefined));
}

export interface ProviderHarness {
  anthropic: anthropic.FakeAnthropic;
  gemini: gemini.FakeGemini;
  baseURL: string;
  client: OpenAI;
  usage: UsageRecord[];
  /** How a chat that must fail failed (the SDK's error), asked with `messages` (a one-word question by default). */
  failedChat(model: string, messages?: OpenAI.ChatCompletionMessageParam[]): Promise<SdkError>;
  /** A raw chat asking a one-word question, for what the SDK hides: response headers, the exact SSE lines. */
  rawQuestion(model: string): Promise<RawAnswer>;
  /** Streams a question through the SDK: the content it yielded, and what it threw (null if nothing). */
  streamUntilError(model: string, prompt?: string): Promise<{ content: string; failure: unknown }>;
  /**
   * Streams "Say hello" under the system prompt "Be brief." at temperature 1.6 (and `extra`) and expects the text
   * fixtures' answer (see expectHelloStream): its chunks, and the last one.
   */
  streamHello(
    model: string,
    nativeFinishReason: string,
    extra?: Partial<OpenAI.ChatCompletionCreateParamsStreaming>,
  ): Promise<{ chunks: Chunk[]; last: Chunk }>;
  /** A chat through a provider the upstream refuses the key of: a 502 naming the provider, with the upstream's body. */
  expectRejectedKey(model: string, upstreamStatus: number, raw: unknown): Promise<void>;
  /** Asks a whole answer to "What is this?" about the test PNG as a data URL. */
  askAboutImage(model: string): Promise<unknown>;
  close(): Promise<void>;
}

type SdkError = InstanceType<typeof OpenAI.APIError>;

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  json(): unknown;
}

export async function startProviderHarness(): Promise<ProviderHarness> {
  const anthropicFake = new anthropic.FakeAnthropic({
    models: Object.keys(anthropicSteps),
    byModel: byModel(anthropicSteps),
    fallback: anthropicAnswer,
  });
  const geminiFake = new gemini.FakeGemini({
    models: Object.keys(geminiSteps),
    byModel: byModel(geminiSteps),
    fallback: geminiAnswer,
  });
  const anthropicUrl = await anthropicFake.start();
  const geminiUrl = await geminiFake.start();
  let toolCallCounter = 0;
  const served = await startTestGateway({
    providers: [
      { id: 'claude', kind: 'anthropic', baseUrl: anthropicUrl, apiKey: anthropic.anthropicKey },
      { id: 'claude-v1', kind: 'anthropic', baseUrl: `${anthropicUrl}/v1/`, apiKey: anthropic.anthropicKey },
      { id: 'claude-badkey', kind: 'anthropic', baseUrl: anthropicUrl, apiKey: 'sk-ant-wrong-key' },
      { id: 'gemini', kind: 'google', baseUrl: geminiUrl, apiKey: gemini.geminiKey },
      { id: 'gemini-badkey', kind: 'google', baseUrl: `${geminiUrl}/v1beta`, apiKey: 'AIzaSy-wrong-key' },
    ],
    adapters: [
      createAnthropicAdapter(),
      createGoogleAdapter({ createToolCallId: () => `call_gemini_${++toolCallCounter}` }),
    ],
    callers: { 'key-1': callerSecret },
    // Retries as in production but quick, never waiting for an upstream's Retry-After of seconds.
    gateway: { retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 1_000 } },
  });
  const client = new OpenAI({ baseURL: served.baseURL, apiKey: callerSecret, maxRetries: 0 });
  return {
    anthropic: anthropicFake,
    gemini: geminiFake,
    baseURL: served.baseURL,
    client,
    usage: served.usage,
    failedChat: (model, messages = question) => sdkError(client.chat.completions.create({ model, messages })),
    rawQuestion: (model) => rawChat(served.baseURL, { model, messages: question }),
    streamUntilError: (model, prompt = 'x') => streamUntilError(client, model, prompt),
    async streamHello(model, nativeFinishReason, extra = {}) {
      const chunks = await collect(
        await client.chat.completions.create({
          model,
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Say hello' },
          ],
          stream: true,
          temperature: 1.6,
          ...extra,
        }),
      );
      return { chunks, last: expectHelloStream(chunks, nativeFinishReason) };
    },
    async expectRejectedKey(model, upstreamStatus, raw) {
      const providerName = model.split('/')[0]!;
      const error = await sdkError(client.chat.completions.create({ model, messages: question }));
      expect(error.status).toBe(502);
      expect(error.message).toContain(`Provider "${providerName}" rejected its API key (upstream ${upstreamStatus})`);
      expect((error.error as { metadata: Record<string, unknown> }).metadata).toMatchObject({
        provider_name: providerName,
        raw,
      });
    },
    askAboutImage: (model) =>
      client.chat.completions.create({
        model,
        stream: false,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
            ],
          },
        ],
      }),
    async close() {
      await served.close();
      await anthropicFake.close();
      await geminiFake.close();
    },
  };
}

async function rawChat(baseURL: string, body: unknown): Promise<RawAnswer> {
  const response = await fetch(`${baseURL}/chat/completions`, {
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
async function sdkError(promise: Promise<unknown>): Promise<SdkError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as SdkError;
}

const question: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'x' }];

/** The SSE events of a raw answer, and the chunk before `[DONE]` parsed (our error chunk, when a stream failed). */
export function lastEvents(text: string): { events: string[]; beforeDone: unknown } {
  const events = text.split('\n\n').filter(Boolean);
  return { events, beforeDone: JSON.parse(events.at(-2)!.slice('data: '.length)) };
}

async function streamUntilError(client: OpenAI, model: string, prompt: string) {
  const stream = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: prompt }],
    stream: true,
  });
  let content = '';
  try {
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
  } catch (error) {
    return { content, failure: error };
  }
  return { content, failure: null };
}

/** Two function tools: the weather in a city (its parameters as each kind's test writes them), the time in a zone. */
export function weatherTools(weatherParameters: OpenAI.FunctionParameters): OpenAI.ChatCompletionTool[] {
  return [
    { type: 'function', function: { name: 'get_weather', parameters: weatherParameters } },
    {
      type: 'function',
      function: { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } },
    },
  ];
}

/** A user message of one image (a URL, or the test PNG as a data URL). */
export function imageMessage(url = `data:image/png;base64,${png}`): OpenAI.ChatCompletionMessageParam[] {
  return [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }];
}

/**
 * The text fixtures' answer as both kinds stream it: "Hello, wörld! 👋", the role in the first chunk, and the
 * finish reason (stop, with the upstream's own as native_finish_reason) in the last chunk only, which it returns.
 */
function expectHelloStream(chunks: Chunk[], nativeFinishReason: string): Chunk {
  expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hello, wörld! 👋');
  expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
  const last = chunks.at(-1)!;
  expect(chunks.filter((chunk) => chunk.choices[0]?.finish_reason)).toEqual([last]);
  expect(last.choices[0]).toMatchObject({ finish_reason: 'stop', native_finish_reason: nativeFinishReason });
  return last;
}
