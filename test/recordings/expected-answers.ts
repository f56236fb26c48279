// What a caller must get for a recording, read from the recording itself with the rules the providers document
// (notes/wire-formats.md sections 1 and 3 to 5): text concatenated from the recorded deltas, reasoning, tool calls
// with their ids, names and arguments, the finish reason mapped, the usage numbers, the opaque reasoning
// (signatures, encrypted or redacted thinking) a caller must be able to send back, and errors. Nothing here uses
// the gateway's own translation code.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Protocol, RecordedCase } from './recorded-cases.js';

export interface ExpectedToolCall {
  /** The upstream's id; null when it gave none (older Gemini models) and the gateway must make one up. */
  id: string | null;
  name: string;
  /** Parsed: whitespace may differ between streamed fragments and a re-serialised object. */
  arguments: unknown;
}

export interface ExpectedChoice {
  content: string;
  reasoning: string;
  toolCalls: ExpectedToolCall[];
  finishReason: string;
}

export interface ExpectedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Null when the upstream did not say. */
  cached_tokens: number | null;
  reasoning_tokens: number | null;
}

export interface ExpectedAnswer {
  /** By choice index. */
  choices: Map<number, ExpectedChoice>;
  usage: ExpectedUsage | null;
  /** Signatures and encrypted or redacted reasoning, each of which must reach the caller in reasoning_details. */
  opaqueReasoning: string[];
  /**
   * A failure. `status` is the caller's HTTP status when the upstream failed before answering; null when it
   * failed mid-stream (the caller then gets a 200 stream ending in an error chunk).
   */
  error: { status: number | null; message: string } | null;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- recorded wire data

/** The caller's status for an upstream's HTTP error (notes section 2: a rejected request stays 400). */
const callerStatus: Record<number, number> = { 400: 400, 422: 400, 429: 429, 503: 503, 529: 503 };

function statusFor(upstream: number): number {
  const status = callerStatus[upstream];
  if (status === undefined) throw new Error(`no documented caller status for an upstream ${upstream}`);
  return status;
}

// notes section 3: end_turn/stop_sequence/pause_turn → stop, tool_use → tool_calls, max_tokens → length,
// refusal → content_filter.
const anthropicFinish: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'content_filter',
};

// notes section 4: STOP → tool_calls when the turn had function calls, else stop; MAX_TOKENS → length;
// SAFETY/RECITATION/BLOCKLIST/PROHIBITED_CONTENT/SPII → content_filter.
function geminiFinish(reason: string, hadToolCalls: boolean): string {
  if (reason === 'MAX_TOKENS') return 'length';
  if (['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII'].includes(reason)) return 'content_filter';
  if (reason === 'STOP') return hadToolCalls ? 'tool_calls' : 'stop';
  throw new Error(`no documented finish reason for Gemini's ${reason}`);
}

function sseEvents(body: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(body);
  return events;
}

function parseArguments(text: string): unknown {
  return text.trim() === '' ? {} : (JSON.parse(text) as unknown);
}

class AnswerBuilder {
  readonly answer: ExpectedAnswer = { choices: new Map(), usage: null, opaqueReasoning: [], error: null };
  private readonly argumentText = new Map<ExpectedToolCall, string>();

  choice(index = 0): ExpectedChoice {
    let choice = this.answer.choices.get(index);
    if (!choice) {
      choice = { content: '', reasoning: '', toolCalls: [], finishReason: '' };
      this.answer.choices.set(index, choice);
    }
    return choice;
  }

  /** A tool call whose arguments arrive as text, in fragments. */
  startCall(choice: ExpectedChoice, id: string | null, name: string): ExpectedToolCall {
    const call: ExpectedToolCall = { id, name, arguments: undefined };
    choice.toolCalls.push(call);
    this.argumentText.set(call, '');
    return call;
  }

  addArguments(call: ExpectedToolCall, text: string): void {
    this.argumentText.set(call, (this.argumentText.get(call) ?? '') + text);
  }

  opaque(value: unknown): void {
    if (typeof value === 'string' && value !== '') this.answer.opaqueReasoning.push(value);
  }

  /** Ends the answer: arguments parsed (`fallback` when none streamed), and a failure finishes every choice. */
  finish(fallbackArguments = new Map<ExpectedToolCall, unknown>()): ExpectedAnswer {
    for (const [call, text] of this.argumentText) {
      call.arguments = text === '' && fallbackArguments.has(call) ? fallbackArguments.get(call) : parseArguments(text);
    }
    if (this.answer.error?.status === null) {
      if (this.answer.choices.size === 0) this.choice(0);
      for (const choice of this.answer.choices.values()) choice.finishReason = 'error';
    }
    return this.answer;
  }
}

// ---- OpenAI-compatible (notes section 5) ----

function openaiUsage(raw: Json): ExpectedUsage {
  const prompt = raw.prompt_tokens ?? 0;
  let completion = raw.completion_tokens ?? 0;
  const reasoning = raw.completion_tokens_details?.reasoning_tokens ?? null;
  const total = raw.total_tokens ?? prompt + completion;
  // Some servers (xAI) leave the reasoning out of completion_tokens; their own total says so.
  if (reasoning && prompt + completion !== total && prompt + completion + reasoning === total) completion += reasoning;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: total,
    cached_tokens: raw.prompt_tokens_details?.cached_tokens ?? null,
    reasoning_tokens: reasoning,
  };
}

/** String content, or content parts (Mistral): `text` parts are text, `thinking` parts hold the reasoning. */
function openaiContent(content: unknown): { text: string; reasoning: string } {
  if (typeof content === 'string') return { text: content, reasoning: '' };
  let text = '';
  let reasoning = '';
  for (const part of (content ?? []) as Json[]) {
    if (part.type === 'text') text += part.text;
    if (part.type === 'thinking') {
      for (const piece of part.thinking as Json[]) if (piece.type === 'text') reasoning += piece.text;
    }
  }
  return { text, reasoning };
}

function addOpenAIMessage(builder: AnswerBuilder, choice: ExpectedChoice, message: Json): void {
  const { text, reasoning } = openaiContent(message.content);
  choice.content += text + (message.refusal ?? '');
  choice.reasoning += (message.reasoning ?? message.reasoning_content ?? '') + reasoning;
  for (const detail of (message.reasoning_details ?? []) as Json[]) {
    builder.opaque(detail.signature);
    builder.opaque(detail.data);
  }
}

function openaiStream(body: string): ExpectedAnswer {
  const builder = new AnswerBuilder();
  const calls = new Map<string, ExpectedToolCall>();
  for (const event of sseEvents(body)) {
    if (event.data.trim() === '[DONE]') break;
    const chunk = JSON.parse(event.data) as Json;
    if (event.event === 'error' || chunk.error) {
      builder.answer.error = { status: null, message: chunk.error?.message ?? String(chunk.error) };
      if (chunk.usage) builder.answer.usage = openaiUsage(chunk.usage);
      break;
    }
    for (const recorded of (chunk.choices ?? []) as Json[]) {
      const index = recorded.index ?? 0;
      const choice = builder.choice(index);
      const delta = recorded.delta ?? {};
      addOpenAIMessage(builder, choice, delta);
      for (const fragment of (delta.tool_calls ?? []) as Json[]) {
        const key = `${index}:${fragment.index ?? 0}`;
        let call = calls.get(key);
        if (!call) {
          call = builder.startCall(choice, fragment.id ?? null, fragment.function?.name ?? '');
          calls.set(key, call);
        }
        const piece = fragment.function?.arguments;
        if (piece != null) builder.addArguments(call, typeof piece === 'string' ? piece : JSON.stringify(piece));
      }
      if (recorded.finish_reason) choice.finishReason = recorded.finish_reason;
    }
    if (chunk.usage) builder.answer.usage = openaiUsage(chunk.usage);
  }
  return builder.finish();
}

function openaiCompletion(json: Json): ExpectedAnswer {
  const builder = new AnswerBuilder();
  for (const [position, recorded] of (json.choices as Json[]).entries()) {
    const choice = builder.choice(recorded.index ?? position);
    addOpenAIMessage(builder, choice, recorded.message);
    for (const call of (recorded.message.tool_calls ?? []) as Json[]) {
      builder.addArguments(builder.startCall(choice, call.id, call.function.name), call.function.arguments);
    }
    choice.finishReason = recorded.finish_reason;
  }
  if (json.usage) builder.answer.usage = openaiUsage(json.usage);
  return builder.finish();
}

// ---- Anthropic Messages (notes section 3) ----

function anthropicUsage(raw: Json): ExpectedUsage {
  const cacheRead = raw.cache_read_input_tokens ?? 0;
  const prompt = (raw.input_tokens ?? 0) + cacheRead + (raw.cache_creation_input_tokens ?? 0);
  const completion = raw.output_tokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cached_tokens: cacheRead,
    reasoning_tokens: null,
  };
}

/** Later usage objects replace the counts they carry (message_delta's are cumulative). */
function mergeUsage(into: Json, from: Json | undefined): void {
  for (const [key, value] of Object.entries(from ?? {})) if (value != null) into[key] = value;
}

function anthropicStream(body: string): ExpectedAnswer {
  const builder = new AnswerBuilder();
  const choice = builder.choice(0);
  const usage: Json = {};
  const blocks = new Map<number, { type: string; call?: ExpectedToolCall }>();
  const inputs = new Map<ExpectedToolCall, unknown>();
  let stopReason = '';
  for (const event of sseEvents(body)) {
    const data = JSON.parse(event.data) as Json;
    switch (data.type) {
      case 'message_start':
        mergeUsage(usage, data.message.usage);
        break;
      case 'content_block_start': {
        const block = data.content_block;
        const entry: { type: string; call?: ExpectedToolCall } = { type: block.type };
        if (block.type === 'text') choice.content += block.text ?? '';
        if (block.type === 'thinking') choice.reasoning += block.thinking ?? '';
        if (block.type === 'redacted_thinking') builder.opaque(block.data);
        if (block.type === 'tool_use') {
          entry.call = builder.startCall(choice, block.id, block.name);
          inputs.set(entry.call, block.input ?? {});
        }
        blocks.set(data.index, entry);
        break;
      }
      case 'content_block_delta': {
        const { delta } = data;
        const block = blocks.get(data.index);
        if (delta.type === 'text_delta') choice.content += delta.text;
        if (delta.type === 'thinking_delta') choice.reasoning += delta.thinking;
        if (delta.type === 'signature_delta' && block?.type === 'thinking') builder.opaque(delta.signature);
        if (delta.type === 'input_json_delta' && block?.call) builder.addArguments(block.call, delta.partial_json);
        break;
      }
      case 'message_delta':
        stopReason = data.delta?.stop_reason ?? stopReason;
        mergeUsage(usage, data.usage);
        break;
      case 'error':
        builder.answer.error = { status: null, message: data.error.message };
        break;
    }
  }
  if (!builder.answer.error) {
    choice.finishReason = anthropicFinish[stopReason] ?? `unmapped ${stopReason}`;
    builder.answer.usage = anthropicUsage(usage);
  }
  return builder.finish(inputs);
}

function anthropicMessage(json: Json, status: number): ExpectedAnswer {
  const builder = new AnswerBuilder();
  if (json.type === 'error') {
    builder.answer.error = { status: statusFor(status), message: json.error.message };
    return builder.finish();
  }
  const choice = builder.choice(0);
  for (const block of json.content as Json[]) {
    if (block.type === 'text') choice.content += block.text;
    if (block.type === 'thinking') {
      choice.reasoning += block.thinking;
      builder.opaque(block.signature);
    }
    if (block.type === 'redacted_thinking') builder.opaque(block.data);
    if (block.type === 'tool_use') {
      builder.addArguments(builder.startCall(choice, block.id, block.name), JSON.stringify(block.input ?? {}));
    }
  }
  choice.finishReason = anthropicFinish[json.stop_reason] ?? `unmapped ${json.stop_reason}`;
  builder.answer.usage = anthropicUsage(json.usage);
  return builder.finish();
}

// ---- Gemini (notes section 4) ----

function geminiUsage(raw: Json): ExpectedUsage {
  const prompt = raw.promptTokenCount ?? 0;
  const thoughts = raw.thoughtsTokenCount ?? 0;
  const completion = (raw.candidatesTokenCount ?? 0) + thoughts;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cached_tokens: raw.cachedContentTokenCount ?? 0,
    reasoning_tokens: thoughts,
  };
}

function geminiResponses(responses: readonly Json[], status: number): ExpectedAnswer {
  const builder = new AnswerBuilder();
  const finishes = new Map<number, string>();
  for (const response of responses) {
    if (response.error) {
      builder.answer.error = { status: statusFor(status), message: response.error.message };
      return builder.finish();
    }
    if (response.usageMetadata) builder.answer.usage = geminiUsage(response.usageMetadata);
    // A prompt blocked before any candidate was generated.
    if (response.promptFeedback?.blockReason && !response.candidates?.length) finishes.set(0, 'BLOCKED');
    for (const [position, candidate] of ((response.candidates ?? []) as Json[]).entries()) {
      const index = candidate.index ?? position;
      const choice = builder.choice(index);
      for (const part of (candidate.content?.parts ?? []) as Json[]) {
        if (part.functionCall) {
          const call = builder.startCall(choice, part.functionCall.id ?? null, part.functionCall.name);
          builder.addArguments(call, JSON.stringify(part.functionCall.args ?? {}));
        } else if (part.thought) choice.reasoning += part.text ?? '';
        else choice.content += part.text ?? '';
        builder.opaque(part.thoughtSignature);
      }
      if (candidate.finishReason) finishes.set(index, candidate.finishReason);
    }
  }
  for (const [index, reason] of finishes) {
    const choice = builder.choice(index);
    choice.finishReason = reason === 'BLOCKED' ? 'content_filter' : geminiFinish(reason, choice.toolCalls.length > 0);
  }
  return builder.finish();
}

export function expectedAnswer(recorded: RecordedCase): ExpectedAnswer {
  const protocol: Protocol = recorded.protocol;
  if (protocol === 'openai') {
    if (recorded.status !== 200) {
      const json = JSON.parse(recorded.body) as Json;
      const builder = new AnswerBuilder();
      builder.answer.error = { status: statusFor(recorded.status), message: json.error.message };
      return builder.finish();
    }
    return recorded.streamed ? openaiStream(recorded.body) : openaiCompletion(JSON.parse(recorded.body) as Json);
  }
  if (protocol === 'anthropic') {
    return recorded.streamed
      ? anthropicStream(recorded.body)
      : anthropicMessage(JSON.parse(recorded.body) as Json, recorded.status);
  }
  const responses = recorded.streamed
    ? sseEvents(recorded.body).map((event) => JSON.parse(event.data) as Json)
    : [JSON.parse(recorded.body) as Json];
  return geminiResponses(responses, recorded.status);
}
