// The fake OpenAI-compatible upstream for every test and the benchmark. It speaks the real chat-completions
// protocol (SSE `data:` lines and `[DONE]`, the `choices: []` usage chunk when include_usage is asked, or one JSON
// completion) and GET /models. A chat request gets the step RecordingServer picks, or a 404 naming its model. Steps
// are built by `answer()`, `fail()`, `errorEvent()` and `hang()`, or return any `Reply` for what those do not say.

import type { OutgoingHttpHeaders } from 'node:http';
import { eventStreamHeaders, jsonReply, RecordingServer } from './recording-server.js';
import type { RecordedRequest, RecordingServerOptions, Reply, Step } from './recording-server.js';

export type { RecordedRequest, Reply, Step };

export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface AnswerPlan {
  /** The answer's text, one stream chunk per piece. */
  content?: readonly string[];
  /** Reasoning streamed before the text, one chunk per piece. */
  reasoning?: readonly string[];
  /** The field reasoning travels in: `reasoning_content` (DeepSeek, vLLM; default) or `reasoning` (OpenRouter). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Deltas sent as they are, after the reasoning (fields the plan does not name: OpenRouter's reasoning_details). */
  deltas?: readonly Record<string, unknown>[];
  /** Parallel tool calls; each one's arguments stream in fragments of `argumentPieceSize` (default: a third). */
  toolCalls?: readonly ToolCall[];
  argumentPieceSize?: number;
  /** Default {prompt_tokens: 5, completion_tokens: 2, total_tokens: 7}. */
  usage?: Record<string, unknown>;
  /** Send the usage chunk even when the request did not ask for it (some upstreams always do). */
  usageUnasked?: boolean;
  /** Default `tool_calls` with tool calls, else `stop`. */
  finishReason?: string;
  /** Answer in this form whatever the request asked (an upstream that ignores `stream`). */
  form?: 'whole' | 'stream';
  headersAfterMs?: number;
  firstChunkAfterMs?: number;
  chunkDelayMs?: number;
  /**
   * How a stream ends: `done` (finish chunk, usage, `[DONE]`; default); after the content pieces, a line that is
   * not JSON (`garbage`), nothing more (`truncated`), silence until the caller leaves (`hang`), a cut or reset
   * connection (`destroy`, `reset`); or everything but `[DONE]`, replaced by a line that is not JSON
   * (`garbage-after-usage`). Any but `done` streams whatever the request asked.
   */
  ending?: 'done' | 'garbage' | 'garbage-after-usage' | 'truncated' | 'hang' | 'destroy' | 'reset';
}

export const defaultUsage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 };
const created = 1_700_000_000;
const notJson = 'data: {this is not json\n\n';

export function sse(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/** One streamed chunk of `model`'s answer. */
export function chunk(model: string, delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** The deltas of a plan, in order; the first one carries the role, as OpenAI's do. */
function deltas(plan: AnswerPlan): Record<string, unknown>[] {
  const list: Record<string, unknown>[] = [];
  const field = plan.reasoningField ?? 'reasoning_content';
  for (const piece of plan.reasoning ?? []) list.push({ [field]: piece });
  list.push(...(plan.deltas ?? []));
  for (const piece of plan.content ?? []) list.push({ content: piece });
  (plan.toolCalls ?? []).forEach((call, index) => {
    list.push({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of cut(call.arguments, plan.argumentPieceSize ?? Math.ceil(call.arguments.length / 3))) {
      list.push({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  if (list.length === 0) list.push({ content: '' });
  list[0] = { role: 'assistant', ...list[0] };
  return list;
}

function finishReasonOf(plan: AnswerPlan): string {
  return plan.finishReason ?? (plan.toolCalls?.length ? 'tool_calls' : 'stop');
}

function completion(plan: AnswerPlan, model: string) {
  const toolCalls = plan.toolCalls?.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: toolCalls?.length ? null : (plan.content ?? []).join(''),
  };
  if (toolCalls?.length) message.tool_calls = toolCalls;
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message, finish_reason: finishReasonOf(plan) }],
    usage: plan.usage ?? defaultUsage,
  };
}

function render(plan: AnswerPlan, model: string, stream: boolean, includeUsage: boolean): Reply {
  const { headersAfterMs, firstChunkAfterMs, chunkDelayMs } = plan;
  const ending = plan.ending ?? 'done';
  // An ending other than `done` is a fault of a stream: it streams whatever was asked.
  const streams = plan.form ? plan.form === 'stream' : stream || ending !== 'done';
  if (!streams) return { ...jsonReply(200, completion(plan, model)), headersAfterMs };
  const chunks = deltas(plan).map((delta) => Buffer.from(sse(chunk(model, delta))));
  const paced = { headers: eventStreamHeaders, headersAfterMs, firstChunkAfterMs, chunkDelayMs };
  if (ending === 'garbage') return { ...paced, chunks: [...chunks, notJson] };
  if (ending === 'truncated') return { ...paced, chunks };
  if (ending === 'hang' || ending === 'destroy' || ending === 'reset') return { ...paced, chunks, then: ending };
  let tail = sse(chunk(model, {}, finishReasonOf(plan)));
  if (includeUsage || plan.usageUnasked) {
    tail += sse({ ...chunk(model, {}), choices: [], usage: plan.usage ?? defaultUsage });
  }
  tail += ending === 'garbage-after-usage' ? notJson : 'data: [DONE]\n\n';
  // The end goes out with the last delta, as a real upstream's does: no extra pause before it.
  const last = Buffer.concat([chunks.pop()!, Buffer.from(tail)]);
  return { ...paced, chunks: [...chunks, last] };
}

/**
 * A generation: streamed in small deltas when the request asks for a stream, else one completion. A text alone is
 * streamed in two pieces; `options` add to the plan. What goes on the wire is prepared once per model and form, so
 * answering costs little (the benchmark's upstream uses it).
 */
export function answer(text: string | AnswerPlan, options: AnswerPlan = {}): Step {
  const plan = {
    ...(typeof text === 'string' ? { content: cut(text, Math.ceil(text.length / 2)) } : text),
    ...options,
  };
  const prepared = new Map<string, Reply>();
  return (request) => {
    const model = String(request.body?.model);
    const stream = request.body?.stream === true;
    const includeUsage = (request.body?.stream_options as { include_usage?: unknown } | undefined)?.include_usage;
    const key = `${model}\n${stream}\n${includeUsage === true}`;
    let reply = prepared.get(key);
    if (!reply) prepared.set(key, (reply = render(plan, model, stream, includeUsage === true)));
    return reply;
  };
}

/** The text cut every `size` characters. */
export function cut(text: string, size: number): string[] {
  const list: string[] = [];
  for (let start = 0; start < text.length; start += Math.max(1, size)) list.push(text.slice(start, start + size));
  return list;
}

/** A JSON body, or a function of the request that builds it (to quote the request back, as OpenAI quotes a key). */
type Payload = Record<string, unknown> | ((request: RecordedRequest) => Record<string, unknown>);

function payloadOf(body: Payload | undefined, request: RecordedRequest): Record<string, unknown> | undefined {
  return typeof body === 'function' ? body(request) : body;
}

/**
 * An error status with an OpenAI-style body (`{"error": {"message": "scripted <status>"}}` unless given).
 */
export function fail(
  status: number,
  { body, headers = {} }: { body?: Payload; headers?: OutgoingHttpHeaders } = {},
): Step {
  return (request) =>
    jsonReply(status, payloadOf(body, request) ?? { error: { message: `scripted ${status}` } }, headers);
}

/** A 401 quoting the Authorization header it got, as OpenAI's "Incorrect API key provided: …" does. */
export function rejectKey(fields: Record<string, unknown> = {}): Step {
  return fail(401, {
    body: (request) => ({
      error: { message: `Incorrect API key provided: ${String(request.headers.authorization)}`, ...fields },
    }),
  });
}

/** Status 200, then one error event before any chunk (OpenRouter's way when its provider fails at once). */
export function errorEvent(body?: Payload): Step {
  return (request) => ({
    headers: eventStreamHeaders,
    chunks: [sse(payloadOf(body, request) ?? { error: { code: 502, message: 'Provider returned error' } })],
  });
}

/** Accepts the request and never answers. */
export function hang(): Step {
  return () => ({ silent: true });
}

export class FakeOpenAI extends RecordingServer {
  /** `http://127.0.0.1:<port>/v1`, once started. */
  baseUrl = '';
  /** Makes GET /models fail with this status. */
  modelsStatus = 200;
  /** Answers POST /completions (legacy) instead of the default `[prompt|suffix]` completion. */
  legacyCompletion: Step | undefined;

  /** GET /models lists `models` (default `gpt-test`); a null list answers 503. */
  constructor(options: RecordingServerOptions = {}) {
    super((request) => this.answer(request), { models: ['gpt-test'], ...options });
  }

  /** Starts listening; resolves with the base URL (ends in /v1). */
  override async start(port = 0): Promise<string> {
    this.baseUrl = `${await super.start(port)}/v1`;
    return this.baseUrl;
  }

  chatRequests(): RecordedRequest[] {
    return this.requests.filter((request) => request.url.endsWith('/chat/completions'));
  }

  private answer(request: RecordedRequest): Reply | Promise<Reply> {
    const path = request.url.split('?')[0]!;
    if (request.method === 'GET' && path.endsWith('/models')) {
      if (!this.models || this.modelsStatus !== 200) {
        return jsonReply(this.models ? this.modelsStatus : 503, { error: { message: 'models unavailable' } });
      }
      const data = this.models.map((entry) =>
        typeof entry === 'string' ? { id: entry, object: 'model', created, owned_by: 'fake' } : entry,
      );
      return jsonReply(200, { object: 'list', data });
    }
    if (request.method === 'POST' && path.endsWith('/embeddings') && request.body) {
      return jsonReply(200, embeddingsOf(request.body));
    }
    if (request.method === 'POST' && path.endsWith('/v1/completions') && request.body) {
      return this.legacyCompletion ? this.legacyCompletion(request) : legacyCompletionOf(request.body);
    }
    if (request.method !== 'POST' || !path.endsWith('/chat/completions') || !request.body) {
      return jsonReply(404, { error: { message: `no route ${request.method} ${path}` } });
    }
    const model = String(request.body.model);
    const step = this.stepFor(model);
    if (!step) return jsonReply(404, { error: { message: `The model ${model} does not exist` } });
    return step(request);
  }
}

/** A vector that tells inputs apart: its length, its first character code, its position. */
export function fakeEmbedding(input: unknown, index: number): number[] {
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  return [text.length, text.charCodeAt(0) || 0, index];
}

/** POST /embeddings as OpenAI answers it, floats only, with a token per input character. */
function embeddingsOf(body: Record<string, unknown>) {
  const inputs = Array.isArray(body.input) && typeof body.input[0] !== 'number' ? body.input : [body.input];
  const tokens = inputs.reduce((sum: number, input) => sum + (typeof input === 'string' ? input.length : 1), 0);
  return {
    object: 'list',
    data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(input, index) })),
    model: body.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

/**
 * POST /completions (legacy): the text is `[prefix|suffix]` of the prompt and suffix it was given, whole or in two
 * streamed chunks (and the usage chunk when include_usage is asked).
 */
function legacyCompletionOf(body: Record<string, unknown>): Reply {
  const text = `[${String(body.prompt)}|${String(body.suffix ?? '')}]`;
  const base = { id: 'cmpl-fake', object: 'text_completion', created, model: body.model };
  const usage = { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 };
  if (body.stream !== true) {
    return jsonReply(200, { ...base, choices: [{ index: 0, text, finish_reason: 'stop', logprobs: null }], usage });
  }
  const half = Math.ceil(text.length / 2);
  const pieces = [text.slice(0, half), text.slice(half)].map((piece, index) =>
    sse({ ...base, choices: [{ index: 0, text: piece, finish_reason: index === 1 ? 'stop' : null, logprobs: null }] }),
  );
  const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  if (includeUsage) pieces.push(sse({ ...base, choices: [], usage }));
  return { headers: eventStreamHeaders, chunks: [...pieces, 'data: [DONE]\n\n'] };
}
