// The chunks of a translated generation as :streamGenerateContent?alt=sse sends them: each chunk one
// GenerateContentResponse in a `data:` event ended by CRLF CRLF, as Google does, and no [DONE]. Thought and text
// deltas go out as they come; tool calls, whose arguments other kinds stream in pieces, go out whole as functionCall
// parts with the finish. The reasoning details go as a signature on the first text part after them (gemini-cli
// merges later text parts into the first, so only the first text part of a turn can carry one) or on the first
// function call. usageMetadata comes with the chunk that carries usage (the last), and a failure once the
// stream is open is Google's error object, which @google/genai raises as an ApiError with its code.

import { ApiError, type ChatCompletionChunk, type ReasoningDetail } from '../../../../shared/api/index.js';
import { processingKeepAlive } from '../../http/exchange.js';
import { errorBody } from '../../http/error-shapes.js';
import type { StreamEncoder } from '../../http/exchange.js';
import {
  attachSignature,
  functionCallPart,
  geminiFinishReason,
  usageMetadataOf,
  type GeminiCandidate,
  type GeminiOutputPart,
  type GenerateContentResponse,
} from './gemini-response.js';

/** One `data:` event as the Gemini API frames it. */
export function geminiEvent(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\r\n\r\n`;
}

/** The event of a failure once the stream is open: Google's error object. */
export function geminiErrorEvent(error: ApiError): string {
  return geminiEvent(errorBody('gemini', error));
}

interface CandidateState {
  /** Reasoning details not yet carried by a signature. */
  details: ReasoningDetail[];
  /** Tool calls being assembled, by their index in the stream. */
  calls: Map<number, { id: string; name: string; arguments: string }>;
  /** Whether a text part went out: clients merge later text into it, so later text cannot carry a signature. */
  textSent: boolean;
}

export function geminiStreamEncoder(): StreamEncoder {
  const states = new Map<number, CandidateState>();
  const stateOf = (index: number): CandidateState => {
    let state = states.get(index);
    if (!state) {
      state = { details: [], calls: new Map(), textSent: false };
      states.set(index, state);
    }
    return state;
  };

  function candidateOf(choice: ChatCompletionChunk['choices'][number]): GeminiCandidate | null {
    const state = stateOf(choice.index);
    const { delta } = choice;
    let parts: GeminiOutputPart[] = [];
    if (delta.reasoning) parts.push({ text: delta.reasoning, thought: true });
    if (delta.reasoning_details?.length) state.details.push(...delta.reasoning_details);
    const text = (delta.content ?? '') + (delta.refusal ?? '');
    if (text !== '') parts.push({ text });
    for (const fragment of delta.tool_calls ?? []) {
      const call = state.calls.get(fragment.index) ?? { id: '', name: '', arguments: '' };
      call.id ||= fragment.id ?? '';
      call.name ||= fragment.function?.name ?? '';
      call.arguments += fragment.function?.arguments ?? '';
      state.calls.set(fragment.index, call);
    }
    const finishing = choice.finish_reason !== null && choice.finish_reason !== undefined;
    if (finishing) {
      const calls = [...state.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
      parts.push(...calls.map(functionCallPart));
      state.calls.clear();
    }
    const carrier = finishing || (!state.textSent && parts.some((part) => !part.thought));
    if (state.details.length > 0 && carrier) {
      parts = attachSignature(parts, state.details);
      state.details = [];
    }
    if (text !== '') state.textSent = true;
    if (parts.length === 0 && !finishing) return null;
    const candidate: GeminiCandidate = { content: { role: 'model', parts }, index: choice.index };
    if (finishing) candidate.finishReason = geminiFinishReason(choice.finish_reason!);
    return candidate;
  }

  return {
    chunk(chunk) {
      if (chunk.error) {
        const { code, message, metadata } = chunk.error;
        return geminiErrorEvent(new ApiError(code, message, metadata));
      }
      const candidates = chunk.choices.flatMap((choice) => candidateOf(choice) ?? []);
      if (candidates.length === 0 && !chunk.usage) return '';
      const response: Partial<GenerateContentResponse> = {};
      if (candidates.length > 0) response.candidates = candidates;
      if (chunk.usage) response.usageMetadata = usageMetadataOf(chunk.usage);
      return geminiEvent({ ...response, modelVersion: chunk.model, responseId: chunk.id });
    },
    end: () => '',
    keepAlive: processingKeepAlive,
  };
}
