// The Gemini API to a google-kind provider, untranslated (native-relay.ts): the caller's body goes upstream as it
// came, the answer comes back as it came with `modelVersion` naming the model as the gateway does. The relay reads
// along: usageMetadata (cumulative: the last one counts) for the usage row and cost, the finish reason, and the
// text, thoughts and function calls for an estimate when the caller leaves. Events are framed as Google frames
// them (`data: …` CRLF CRLF).

import {
  type NativeCall,
  type UpstreamTarget,
  convertGeminiUsage,
  geminiResponseSchema,
  mapGeminiFinishReason,
} from '../../../providers/index.js';
import type { NativeProtocol, NativeReading } from '../../pipeline/native-relay.js';
import { geminiErrorEvent, geminiEvent } from './gemini-stream-encoder.js';

/** The Gemini protocol for one request (it remembers whether the answer called a function, for the finish reason). */
export function geminiNativeProtocol(): NativeProtocol {
  let calledFunctions = false;
  return {
    kind: 'google',
    read(payload: Record<string, unknown>, reading: NativeReading): void {
      const parsed = geminiResponseSchema.safeParse(payload);
      if (!parsed.success) return;
      const response = parsed.data;
      if (response.usageMetadata) reading.usage = convertGeminiUsage(response.usageMetadata);
      const blocked = response.promptFeedback?.blockReason;
      if (blocked && !response.candidates?.length) reading.finishReason = 'content_filter';
      for (const candidate of response.candidates ?? []) {
        for (const part of candidate.content?.parts ?? []) {
          if (part.text) reading.generated.push(part.text);
          if (part.functionCall) {
            calledFunctions = true;
            reading.generated.push(part.functionCall.name ?? '', JSON.stringify(part.functionCall.args ?? {}));
          }
        }
        if (candidate.finishReason && (candidate.index ?? 0) === 0) {
          reading.finishReason = mapGeminiFinishReason(candidate.finishReason, calledFunctions);
        }
      }
    },
    relabel: (payload, model) => ('modelVersion' in payload ? { ...payload, modelVersion: model } : payload),
    encode: (payload) => geminiEvent(payload),
    errorEvent: geminiErrorEvent,
    end: () => '',
  };
}

/** The Gemini methods a caller may call untranslated. */
export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'countTokens';

/**
 * The upstream call for `target`: the caller's body; a whole GenerateContentRequest inside :countTokens names its
 * model, which becomes the upstream's.
 */
export function geminiNativeCall(method: GeminiMethod, body: Record<string, unknown>) {
  return (target: UpstreamTarget): NativeCall => {
    const inner = body.generateContentRequest;
    const upstreamBody =
      inner !== null && typeof inner === 'object' && !Array.isArray(inner)
        ? { ...body, generateContentRequest: { ...inner, model: `models/${target.model}` } }
        : body;
    return { operation: method, body: upstreamBody, stream: method === 'streamGenerateContent' };
  };
}
