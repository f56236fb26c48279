// The real gateway with the OpenAI, Anthropic and Google adapters in front of one fake upstream of each kind
// (provider `oai`, `claude`, `gemini`), priced at $1 per million input tokens and $2 per million output tokens: the
// upstream side every inbound protocol's tests share. The Anthropic and Gemini fakes answer a request that offers
// tools and answers none with their recorded thinking-and-tool-calls stream (or whole message), anything else with
// text; the OpenAI fake answers with `openaiFallback` (default: text) unless a test scripts it.

import type { UsageRecord } from '../../shared/api/index.js';
import type { GatewayOptions } from '../../main/gateway/index.js';
import { createAnthropicAdapter } from '../../main/providers/anthropic/index.js';
import { createGoogleAdapter } from '../../main/providers/google/index.js';
import { createOpenAIAdapter } from '../../main/providers/index.js';
import * as anthropic from './fake-anthropic.js';
import * as gemini from './fake-gemini.js';
import { FakeOpenAI, answer } from './fake-openai.js';
import type { RecordedRequest, Step } from './recording-server.js';
import { startTestGateway, type TestGateway } from './test-gateway.js';

export const anthropicModel = 'claude/claude-sonnet-4-20250514';
export const geminiModel = 'gemini/gemini-2.5-flash';
export const openaiModel = 'oai/gpt-test';

/** Whether a request offers tools and its last message answers none (the first turn of a tool loop). */
export function wantsTools(offered: unknown, lastParts: unknown) {
  const parts = Array.isArray(lastParts) ? (lastParts as { type?: string; functionResponse?: unknown }[]) : [];
  const answered = parts.some((part) => part.type === 'tool_result' || part.functionResponse !== undefined);
  return Array.isArray(offered) && offered.length > 0 && !answered;
}

/** wantsTools of a Messages or a Gemini request: its tools, and the content of its last message or turn. */
function firstToolTurn(request: RecordedRequest): boolean {
  const body = request.body as { tools?: unknown; messages?: { content: unknown }[]; contents?: { parts: unknown }[] };
  return wantsTools(body.tools, body.messages?.at(-1)?.content ?? body.contents?.at(-1)?.parts);
}

export const anthropicText = {
  id: 'msg_01TextWhole',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-20250514',
  content: [{ type: 'text', text: 'Hello from Claude.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 10, output_tokens: 5 },
};

export const geminiText = {
  candidates: [{ content: { parts: [{ text: 'Hello from Gemini.' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 4, totalTokenCount: 34, cachedContentTokenCount: 16 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'whole-1',
};

/** The Anthropic fake's answer: its recorded thinking and tool calls to a tool loop's first turn, text otherwise. */
export const anthropicAnswer = anthropic.answer((request) =>
  firstToolTurn(request)
    ? {
        stream: 'anthropic-thinking-tool-calls.sse.txt',
        whole: JSON.parse(anthropic.anthropicFixture('anthropic-message.json')),
      }
    : { stream: 'anthropic-text.sse.txt', whole: anthropicText },
);

/** The Gemini fake's answer: its recorded thinking and tool calls to a tool loop's first turn, text otherwise. */
export const geminiAnswer = gemini.answer((request) =>
  firstToolTurn(request)
    ? { stream: 'gemini-thinking-tool-calls.sse.txt', whole: JSON.parse(gemini.geminiFixture('gemini-response.json')) }
    : { stream: 'gemini-text.sse.txt', whole: geminiText },
);

export interface ThreeKindsOptions {
  /** The caller keys: id → secret. */
  callers: Record<string, string>;
  /** What the OpenAI fake answers when no step is scripted (default: "answer from gpt"). */
  openaiFallback?: Step;
  /** How long the gateway waits for a silent upstream before it opens a stream with keep-alives (default 15 s). */
  keepAliveMs?: number;
  /** How long a stream's caller may take nothing before its stream is ended (the gateway's default unless set). */
  stalledCallerMs?: number;
  /** Generation watchers (traces, metrics) given to the gateway. */
  watchers?: GatewayOptions['watchers'];
}

export interface ThreeKinds {
  openai: FakeOpenAI;
  anthropic: anthropic.FakeAnthropic;
  gemini: gemini.FakeGemini;
  served: TestGateway;
  usage: UsageRecord[];
  close(): Promise<void>;
}

export async function startThreeKinds(options: ThreeKindsOptions): Promise<ThreeKinds> {
  const openaiFake = new FakeOpenAI({
    models: ['gpt-test'],
    fallback: options.openaiFallback ?? answer('answer from gpt'),
  });
  const anthropicFake = new anthropic.FakeAnthropic({
    models: ['claude-sonnet-4-20250514'],
    fallback: anthropicAnswer,
  });
  const geminiFake = new gemini.FakeGemini({ models: ['gemini-2.5-flash'], fallback: geminiAnswer });
  const [openaiUrl, anthropicUrl, geminiUrl] = [
    await openaiFake.start(),
    await anthropicFake.start(),
    await geminiFake.start(),
  ];
  let toolCallCounter = 0;
  const served = await startTestGateway({
    providers: [
      { id: 'oai', kind: 'openai', baseUrl: openaiUrl },
      { id: 'claude', kind: 'anthropic', baseUrl: anthropicUrl, apiKey: anthropic.anthropicKey },
      { id: 'gemini', kind: 'google', baseUrl: geminiUrl, apiKey: gemini.geminiKey },
    ],
    adapters: [
      createOpenAIAdapter(),
      createAnthropicAdapter(),
      createGoogleAdapter({ createToolCallId: () => `call_gemini_${++toolCallCounter}` }),
    ],
    callers: options.callers,
    gateway: {
      retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 1_000 },
      keepAliveMs: options.keepAliveMs,
      stalledCallerMs: options.stalledCallerMs,
      watchers: options.watchers,
    },
    price: (_target, usage) => {
      const costNanos = usage ? usage.prompt_tokens * 1_000 + usage.completion_tokens * 2_000 : 0;
      return { cost: costNanos / 1e9, costNanos, unpriced: false, source: 'override' };
    },
  });
  return {
    openai: openaiFake,
    anthropic: anthropicFake,
    gemini: geminiFake,
    served,
    usage: served.usage,
    async close() {
      await served.close();
      await Promise.all([openaiFake.close(), anthropicFake.close(), geminiFake.close()]);
    },
  };
}
