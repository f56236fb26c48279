// A chat completion → Gemini's GenerateContentResponse, and the pieces the stream encoder shares with it: each choice
// a candidate whose content has thought parts (`thought: true`), text parts and whole functionCall parts; the
// finish reason in Google's words; usage as usageMetadata. The generation's reasoning_details travel as a
// thoughtSignature (thought-signature.ts: opaque to the client, given back in the next turn) on the first part
// after the reasoning that is not a thought, where Gemini puts its own and where clients keep it: gemini-cli drops
// thought parts from its history but keeps signatures on function calls and text.

import type { ChatCompletion, FinishReason, ReasoningDetail, ToolCall, Usage } from '../../../../shared/api/index.js';
import { encodeThoughtSignature } from './thought-signature.js';

export interface GeminiOutputPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name: string; args: Record<string, unknown>; id?: string };
}

export interface GeminiCandidate {
  content: { role: 'model'; parts: GeminiOutputPart[] };
  finishReason?: string;
  index: number;
}

export interface GeminiUsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

export interface GenerateContentResponse {
  candidates?: GeminiCandidate[];
  usageMetadata?: GeminiUsageMetadata;
  modelVersion: string;
  responseId: string;
}

/** Our finish_reason → Gemini's finishReason (tool calls end with STOP in Gemini too). */
export function geminiFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    case 'error':
      return 'OTHER';
    default:
      return 'STOP';
  }
}

/** Our usage → usageMetadata: Gemini counts thoughts apart from the candidates' tokens. */
export function usageMetadataOf(usage: Usage): GeminiUsageMetadata {
  const thoughts = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const metadata: GeminiUsageMetadata = {
    promptTokenCount: usage.prompt_tokens,
    candidatesTokenCount: Math.max(0, usage.completion_tokens - thoughts),
    totalTokenCount: usage.total_tokens,
  };
  if (thoughts > 0) metadata.thoughtsTokenCount = thoughts;
  if (cached > 0) metadata.cachedContentTokenCount = cached;
  return metadata;
}

/** A tool call as a functionCall part: Gemini's arguments are an object (anything else is wrapped, not lost). */
export function functionCallPart(call: { id: string; name: string; arguments: string }): GeminiOutputPart {
  let args: Record<string, unknown> = {};
  if (call.arguments.trim() !== '') {
    try {
      const value: unknown = JSON.parse(call.arguments);
      args = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as typeof args) : { value };
    } catch {
      args = { arguments: call.arguments };
    }
  }
  const functionCall: GeminiOutputPart['functionCall'] = { name: call.name, args };
  if (call.id) functionCall.id = call.id;
  return { functionCall };
}

/**
 * Puts the signature of `details` on the first part that is not a thought (a function call before text, as Gemini
 * does), or on an empty text part of its own when there is none. Nothing when there are no details.
 */
export function attachSignature(parts: GeminiOutputPart[], details: readonly ReasoningDetail[]): GeminiOutputPart[] {
  if (details.length === 0) return parts;
  const thoughtSignature = encodeThoughtSignature(details);
  const carrier = parts.find((part) => part.functionCall) ?? parts.find((part) => !part.thought);
  if (!carrier) return [...parts, { text: '', thoughtSignature }];
  return parts.map((part) => (part === carrier ? { ...part, thoughtSignature } : part));
}

function partsOf(message: ChatCompletion['choices'][number]['message']): GeminiOutputPart[] {
  const parts: GeminiOutputPart[] = [];
  if (message.reasoning) parts.push({ text: message.reasoning, thought: true });
  const text = (message.content ?? '') + (message.refusal ?? '');
  if (text !== '') parts.push({ text });
  for (const call of message.tool_calls ?? ([] as ToolCall[])) {
    parts.push(functionCallPart({ id: call.id, name: call.function.name, arguments: call.function.arguments }));
  }
  return attachSignature(parts, message.reasoning_details ?? []);
}

export function convertChatCompletion(completion: ChatCompletion): GenerateContentResponse {
  return {
    candidates: completion.choices.map((choice) => {
      const candidate: GeminiCandidate = {
        content: { role: 'model', parts: partsOf(choice.message) },
        index: choice.index,
      };
      if (choice.finish_reason) candidate.finishReason = geminiFinishReason(choice.finish_reason);
      return candidate;
    }),
    usageMetadata: usageMetadataOf(completion.usage),
    modelVersion: completion.model,
    responseId: completion.id,
  };
}
