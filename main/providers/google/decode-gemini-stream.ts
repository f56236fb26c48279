// Gemini GenerateContentResponses (each SSE `data:` of :streamGenerateContent?alt=sse is a whole one; there is no
// [DONE]) → StreamParts. Thought parts become `reasoning` + `reasoning.text` details; a thoughtSignature becomes a
// `reasoning.encrypted` detail, with `id` = the tool call's id when it sat on a functionCall part. Function calls
// arrive whole: one delta with id (made up when Gemini gives none), name and all the arguments. Google Search
// grounding becomes `url_citation` annotations and one `web_search_calls` delta with the queries and pages.
// The finish and the last usageMetadata are sent when the body ends; a body that ends without a finishReason was
// cut short.

import type {
  ChoiceLogprobs,
  ChunkDelta,
  FinishReason,
  ReasoningDetail,
  ToolCallDelta,
  WebSearchCall,
} from '../../../shared/api/index.js';
import type { StreamPart } from '../adapter.js';
import { newToolCallId, urlCitation, type UrlCitation } from '../common/index.js';
import type { SecretRedactor } from '../http/redact.js';
import { malformedUpstream, mapUpstreamErrorPayload, parseEventJson } from '../http/upstream-errors.js';
import {
  geminiReasoningFormat,
  geminiResponseSchema,
  type GeminiGrounding,
  type GeminiLogprobs,
  type GeminiResponsePart,
  type GeminiUsage,
} from './gemini-api.js';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

export interface GeminiDecoderContext {
  providerId: string;
  /** Scrubbed from anything quoted back to the caller. */
  secrets: SecretRedactor;
  /**
   * False when the caller asked `reasoning.exclude`: thought text is not passed on. Thought signatures still are:
   * they hold no readable reasoning, and Gemini rejects the next turn of a tool loop without them.
   */
  emitReasoning: boolean;
  createToolCallId?: () => string;
}

interface CandidateState {
  toolCalls: number;
  reasoningItems: number;
  /** The detail index of the thought text being streamed, null between thoughts. */
  thoughtIndex: number | null;
  finishReason: string | null;
  /** A prompt blocked before any candidate (promptFeedback.blockReason). */
  blocked: boolean;
  /** The answer's text so far, for grounding spans (Gemini counts them in UTF-8 bytes of it). */
  text: string;
  /** The Google searches of the answer were sent (grounding metadata may repeat on later events). */
  searchesSent: boolean;
}

/** Grounding supports → url_citation annotations, their byte spans turned into string indices of `text`. */
export function groundingCitations(grounding: GeminiGrounding, text: string): UrlCitation[] {
  const bytes = Buffer.from(text, 'utf8');
  const index = (byteOffset: number) => bytes.subarray(0, Math.max(0, byteOffset)).toString('utf8').length;
  const pages = grounding.groundingChunks ?? [];
  return (grounding.groundingSupports ?? []).flatMap((support) => {
    const start = index(support.segment?.startIndex ?? 0);
    const end = index(support.segment?.endIndex ?? bytes.length);
    return (support.groundingChunkIndices ?? []).flatMap((chunkIndex) => {
      const page = pages[chunkIndex]?.web;
      return page?.uri ? [urlCitation({ url: page.uri, title: page.title }, start, end)] : [];
    });
  });
}

/** The Google searches that grounded an answer, as one search with every query; null when none ran. */
export function webSearchOf(grounding: GeminiGrounding): WebSearchCall | null {
  const queries = grounding.webSearchQueries ?? [];
  if (queries.length === 0) return null;
  const sources = (grounding.groundingChunks ?? []).flatMap((chunk) => {
    const page = chunk.web;
    if (!page?.uri) return [];
    return [page.title ? { url: page.uri, title: page.title } : { url: page.uri }];
  });
  return { queries, sources };
}

/** Gemini's log probabilities → OpenAI's: each chosen token with the top alternatives of its step. */
export function convertGeminiLogprobs(result: GeminiLogprobs): ChoiceLogprobs | null {
  const chosen = result.chosenCandidates ?? [];
  if (chosen.length === 0) return null;
  const entry = (candidate: { token?: string | null; logProbability?: number | null }) => {
    const token = candidate.token ?? '';
    return { token, logprob: candidate.logProbability ?? 0, bytes: [...Buffer.from(token, 'utf8')] };
  };
  const content = chosen.map((candidate, step) => ({
    ...entry(candidate),
    top_logprobs: (result.topCandidates?.[step]?.candidates ?? []).map(entry),
  }));
  return { content, refusal: null };
}

export class GeminiStreamDecoder {
  private readonly candidates = new Map<number, CandidateState>();
  private usage: GeminiUsage | null = null;
  private readonly createToolCallId: () => string;

  constructor(private readonly context: GeminiDecoderContext) {
    this.createToolCallId = context.createToolCallId ?? newToolCallId;
  }

  /** One SSE `data:` payload. Throws an ApiError for an error payload or data we cannot read. */
  accept(data: string): StreamPart[] {
    const text = data.trim();
    if (text === '') return [];
    return this.acceptResponse(parseEventJson(text, this.context.providerId, this.context.secrets), text);
  }

  /** One parsed GenerateContentResponse (also the whole answer of :generateContent). */
  acceptResponse(json: unknown, raw = JSON.stringify(json)): StreamPart[] {
    const error = (json as { error?: { code?: unknown } } | null)?.error;
    if (error) {
      const code = typeof error.code === 'number' ? error.code : 502;
      throw mapUpstreamErrorPayload(this.context.providerId, json, this.context.secrets, code);
    }
    const parsed = geminiResponseSchema.safeParse(json);
    if (!parsed.success) {
      throw malformedUpstream(this.context.providerId, 'sent a response we cannot read', raw, this.context.secrets);
    }
    const response = parsed.data;
    if (response.usageMetadata) this.usage = response.usageMetadata;
    const parts: StreamPart[] = [];
    const blockReason = response.promptFeedback?.blockReason;
    if (blockReason && !response.candidates?.length) {
      const state = this.state(0);
      state.finishReason = blockReason;
      state.blocked = true;
    }
    for (const [position, candidate] of (response.candidates ?? []).entries()) {
      const index = candidate.index ?? position;
      const state = this.state(index);
      for (const part of candidate.content?.parts ?? []) {
        const delta = this.convertPart(part, state);
        if (delta) parts.push({ type: 'delta', index, delta });
      }
      const annotations = candidate.groundingMetadata
        ? groundingCitations(candidate.groundingMetadata, state.text)
        : [];
      if (annotations.length > 0) parts.push({ type: 'delta', index, delta: { annotations } });
      const search = candidate.groundingMetadata ? webSearchOf(candidate.groundingMetadata) : null;
      if (search && !state.searchesSent) {
        state.searchesSent = true;
        parts.push({ type: 'delta', index, delta: { web_search_calls: [search] } });
      }
      // The tokens' log probabilities ride on the event's last delta of this candidate, as OpenAI's chunks carry them.
      const logprobs = candidate.logprobsResult ? convertGeminiLogprobs(candidate.logprobsResult) : null;
      if (logprobs) {
        const last = parts.at(-1);
        if (last?.type === 'delta' && last.index === index) last.logprobs = logprobs;
        else parts.push({ type: 'delta', index, delta: {}, logprobs });
      }
      if (candidate.finishReason) state.finishReason = candidate.finishReason;
    }
    return parts;
  }

  /** Call when the body ended: the finish of each candidate and the usage; an ApiError when no finishReason came. */
  end(): StreamPart[] {
    const states = [...this.candidates.entries()];
    if (states.length === 0 || states.some(([, state]) => state.finishReason === null)) {
      throw malformedUpstream(this.context.providerId, 'ended the stream without a finishReason (truncated)');
    }
    const parts: StreamPart[] = states.map(([index, state]) => {
      const finishReason: FinishReason = state.blocked
        ? 'content_filter'
        : mapGeminiFinishReason(state.finishReason, state.toolCalls > 0);
      return { type: 'delta', index, delta: {}, finish_reason: finishReason, native_finish_reason: state.finishReason };
    });
    if (this.usage) parts.push({ type: 'usage', usage: convertGeminiUsage(this.usage) });
    return parts;
  }

  private state(index: number): CandidateState {
    let state = this.candidates.get(index);
    if (!state) {
      state = {
        toolCalls: 0,
        reasoningItems: 0,
        thoughtIndex: null,
        finishReason: null,
        blocked: false,
        text: '',
        searchesSent: false,
      };
      this.candidates.set(index, state);
    }
    return state;
  }

  private convertPart(part: GeminiResponsePart, state: CandidateState): ChunkDelta | null {
    const delta: ChunkDelta = {};
    const details: ReasoningDetail[] = [];
    let toolCallId: string | undefined;
    if (part.functionCall) {
      state.thoughtIndex = null;
      toolCallId = part.functionCall.id || this.createToolCallId();
      const call: ToolCallDelta = {
        index: state.toolCalls++,
        id: toolCallId,
        type: 'function',
        function: { name: part.functionCall.name ?? '', arguments: JSON.stringify(part.functionCall.args ?? {}) },
      };
      delta.tool_calls = [call];
    } else if (part.thought) {
      if (part.text && this.context.emitReasoning) {
        state.thoughtIndex ??= state.reasoningItems++;
        delta.reasoning = part.text;
        details.push({
          type: 'reasoning.text',
          text: part.text,
          format: geminiReasoningFormat,
          index: state.thoughtIndex,
        });
      }
    } else if (part.text) {
      state.thoughtIndex = null;
      delta.content = part.text;
      state.text += part.text;
    }
    if (part.thoughtSignature) {
      state.thoughtIndex = null;
      const signature: ReasoningDetail = {
        type: 'reasoning.encrypted',
        data: part.thoughtSignature,
        format: geminiReasoningFormat,
        index: state.reasoningItems++,
      };
      if (toolCallId !== undefined) signature.id = toolCallId;
      details.push(signature);
    }
    if (details.length > 0) delta.reasoning_details = details;
    return Object.keys(delta).length > 0 ? delta : null;
  }
}
