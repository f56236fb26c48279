// The real gateway (in-memory deps, the OpenAI, Anthropic and Google adapters) in front of the recorded upstreams,
// one per protocol, driven by the official openai SDK at /api/v1 (and at /v1, OpenAI's base). A case is asked for
// as the model `<protocol's provider>/<case id>`; what the caller got is folded into the same shape as the expected
// answer.

import OpenAI from 'openai';
import type { ReasoningDetail, UsageRecord } from '../../shared/api/index.js';
import { createAnthropicAdapter } from '../../main/providers/anthropic/index.js';
import { createGoogleAdapter } from '../../main/providers/google/index.js';
import { openAIBaseUrlOf } from '../../main/gateway/index.js';
import { createOpenAIAdapter } from '../../main/providers/index.js';
import { anthropicKey } from '../support/fake-anthropic.js';
import { geminiKey } from '../support/fake-gemini.js';
import { startTestGateway } from '../support/test-gateway.js';
import type { Protocol, RecordedCase } from './recorded-cases.js';
import { startRecordedUpstreams } from './recorded-upstream.js';

const providerOf: Record<Protocol, string> = { openai: 'compatible', anthropic: 'claude', gemini: 'gemini' };
const callerSecret = 'sk-sy-v1-recordings-caller';

export interface ReplayHarness {
  client: OpenAI;
  /** The same SDK at /v1, where answers take OpenAI's shapes. */
  v1Client: OpenAI;
  usage: UsageRecord[];
  close(): Promise<void>;
}

export async function startReplayHarness(cases: readonly RecordedCase[]): Promise<ReplayHarness> {
  const upstreams = await startRecordedUpstreams(cases);
  const gateway = await startTestGateway({
    providers: [
      { id: providerOf.openai, baseUrl: upstreams.urls.openai, apiKey: 'sk-recorded-upstream' },
      { id: providerOf.anthropic, kind: 'anthropic', baseUrl: upstreams.urls.anthropic, apiKey: anthropicKey },
      { id: providerOf.gemini, kind: 'google', baseUrl: upstreams.urls.gemini, apiKey: geminiKey },
    ],
    adapters: [createOpenAIAdapter(), createAnthropicAdapter(), createGoogleAdapter()],
    callers: { 'key-1': callerSecret },
    // Retries as in production but quick (a recorded 429 is answered again on every attempt).
    gateway: { retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 1_000 } },
  });
  return {
    client: new OpenAI({ baseURL: gateway.baseURL, apiKey: callerSecret, maxRetries: 0 }),
    v1Client: new OpenAI({ baseURL: openAIBaseUrlOf(gateway.baseURL), apiKey: callerSecret, maxRetries: 0 }),
    usage: gateway.usage,
    async close() {
      await gateway.close();
      await upstreams.close();
    },
  };
}

export function modelFor(recorded: RecordedCase): string {
  return `${providerOf[recorded.protocol]}/${recorded.id}`;
}

export interface ReceivedToolCall {
  id: string;
  name: string;
  argumentsText: string;
}

export interface ReceivedChoice {
  content: string;
  reasoning: string;
  toolCalls: ReceivedToolCall[];
  /** Every finish_reason the choice got: a stream must end each choice exactly once. */
  finishReasons: string[];
}

/** What the caller got, in one shape for streamed and whole answers. */
export interface ReceivedAnswer {
  id: string;
  choices: Map<number, ReceivedChoice>;
  /** Every usage object the caller got: one, on the last chunk, for a stream. */
  usages: OpenAI.CompletionUsage[];
  /** The data and signatures in reasoning_details. */
  opaqueReasoning: string[];
  /** The error of a stream's error chunk. */
  streamError: { code: number; message: string } | null;
}

interface WireDelta {
  content?: string | null;
  reasoning?: string;
  reasoning_details?: ReasoningDetail[];
  tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
}

interface WireChunk {
  id: string;
  choices: { index: number; delta: WireDelta; finish_reason: string | null }[];
  usage?: OpenAI.CompletionUsage | null;
  error?: { code: number; message: string };
}

function newAnswer(id: string): ReceivedAnswer {
  return { id, choices: new Map(), usages: [], opaqueReasoning: [], streamError: null };
}

function choiceOf(answer: ReceivedAnswer, index: number): ReceivedChoice {
  let choice = answer.choices.get(index);
  if (!choice) {
    choice = { content: '', reasoning: '', toolCalls: [], finishReasons: [] };
    answer.choices.set(index, choice);
  }
  return choice;
}

function addReasoningDetails(answer: ReceivedAnswer, details: readonly ReasoningDetail[] | undefined): void {
  for (const detail of details ?? []) {
    const { data, signature } = detail as { data?: string; signature?: string };
    if (data) answer.opaqueReasoning.push(data);
    if (signature) answer.opaqueReasoning.push(signature);
  }
}

/** Folds chunks as a caller does: text concatenated, tool calls assembled by index. */
export function foldChunks(chunks: readonly WireChunk[]): ReceivedAnswer {
  const answer = newAnswer(chunks[0]?.id ?? '');
  for (const chunk of chunks) {
    if (chunk.usage) answer.usages.push(chunk.usage);
    if (chunk.error) answer.streamError = chunk.error;
    for (const { index, delta, finish_reason } of chunk.choices) {
      const choice = choiceOf(answer, index);
      choice.content += delta.content ?? '';
      choice.reasoning += delta.reasoning ?? '';
      addReasoningDetails(answer, delta.reasoning_details);
      for (const fragment of delta.tool_calls ?? []) {
        const call = (choice.toolCalls[fragment.index] ??= { id: '', name: '', argumentsText: '' });
        call.id ||= fragment.id ?? '';
        call.name ||= fragment.function?.name ?? '';
        call.argumentsText += fragment.function?.arguments ?? '';
      }
      if (finish_reason) choice.finishReasons.push(finish_reason);
    }
  }
  return answer;
}

export function foldCompletion(completion: OpenAI.ChatCompletion): ReceivedAnswer {
  const answer = newAnswer(completion.id);
  if (completion.usage) answer.usages.push(completion.usage);
  for (const { index, message, finish_reason } of completion.choices) {
    const choice = choiceOf(answer, index);
    const extra = message as { reasoning?: string; reasoning_details?: ReasoningDetail[] };
    choice.content = message.content ?? '';
    choice.reasoning = extra.reasoning ?? '';
    addReasoningDetails(answer, extra.reasoning_details);
    choice.toolCalls = (message.tool_calls ?? []).map((call) => {
      if (call.type !== 'function') throw new Error(`unexpected tool call type ${call.type}`);
      return { id: call.id, name: call.function.name, argumentsText: call.function.arguments };
    });
    choice.finishReasons = [finish_reason];
  }
  return answer;
}

const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Replay the recording.' }];

/** Streams a case through the SDK, as a client does; `sdkError` is what the SDK threw mid-stream. */
export async function streamCase(harness: ReplayHarness, recorded: RecordedCase) {
  const stream = await harness.client.chat.completions.create({ model: modelFor(recorded), messages, stream: true });
  const chunks: WireChunk[] = [];
  let sdkError: unknown = null;
  try {
    for await (const chunk of stream) chunks.push(chunk as WireChunk);
  } catch (error) {
    sdkError = error;
  }
  return { answer: foldChunks(chunks), sdkError };
}

/**
 * The stream exactly as it went over the wire, every `data:` chunk included: the SDK throws at OpenRouter's error
 * chunk, so what that chunk carries (the error, the usage) is read here.
 */
export async function streamCaseRaw(harness: ReplayHarness, recorded: RecordedCase): Promise<ReceivedAnswer> {
  const response = await harness.client.chat.completions
    .create({ model: modelFor(recorded), messages, stream: true })
    .asResponse();
  const text = await response.text();
  const chunks = [...text.matchAll(/^data: (.*)$/gm)]
    .map(([, data]) => data!)
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as WireChunk);
  return foldChunks(chunks);
}

export async function completeCase(harness: ReplayHarness, recorded: RecordedCase): Promise<ReceivedAnswer> {
  return foldCompletion(
    await harness.client.chat.completions.create({ model: modelFor(recorded), messages, stream: false }),
  );
}
