// The parts of the Gemini API (generativelanguage v1beta) that Switchyard speaks. Request shapes are plain types
// (we build them); response shapes are lenient zod schemas (we parse them): unknown fields must never break a
// response.

import { z } from 'zod';
import { tokenCountsSchema } from '../common/index.js';

/** The `format` of reasoning_details items that came from (and go back to) Gemini. */
export const geminiReasoningFormat = 'google-gemini-v1';

// ---- Request ----------------------------------------------------------------------------------------------------

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  functionCall?: { name: string; args: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: Record<string, unknown>; id?: string };
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

export interface GeminiThinkingConfig {
  /** -1: the model decides; 0: off (where the model allows it). */
  thinkingBudget?: number;
  includeThoughts?: boolean;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  candidateCount?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseSchema?: Record<string, unknown>;
  thinkingConfig?: GeminiThinkingConfig;
  /** Whether to return the log probability of each chosen token. */
  responseLogprobs?: boolean;
  /** How many top alternatives to return the log probabilities of, per token (with responseLogprobs). */
  logprobs?: number;
}

/** A tool the model may use: the caller's functions, or Google Search, which Gemini runs itself. */
export type GeminiTool =
  { functionDeclarations: GeminiFunctionDeclaration[] } | { googleSearch: Record<string, never> };

export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: GeminiTool[];
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] } };
  generationConfig?: GeminiGenerationConfig;
}

// ---- Responses --------------------------------------------------------------------------------------------------

export const geminiUsageSchema = tokenCountsSchema(
  'promptTokenCount',
  'candidatesTokenCount',
  'thoughtsTokenCount',
  'cachedContentTokenCount',
  'toolUsePromptTokenCount',
  'totalTokenCount',
);
export type GeminiUsage = z.infer<typeof geminiUsageSchema>;

export const geminiResponsePartSchema = z.looseObject({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  functionCall: z
    .looseObject({
      name: z.string().nullish(),
      args: z.record(z.string(), z.unknown()).nullish(),
      id: z.string().nullish(),
    })
    .nullish(),
});
export type GeminiResponsePart = z.infer<typeof geminiResponsePartSchema>;

/**
 * Google Search grounding: what was searched for, the pages found, and which spans of the answer (UTF-8 byte
 * offsets) each supports.
 */
export const geminiGroundingSchema = z.looseObject({
  webSearchQueries: z.array(z.string()).nullish(),
  groundingChunks: z
    .array(z.looseObject({ web: z.looseObject({ uri: z.string().nullish(), title: z.string().nullish() }).nullish() }))
    .nullish(),
  groundingSupports: z
    .array(
      z.looseObject({
        segment: z
          .looseObject({ startIndex: z.number().int().nullish(), endIndex: z.number().int().nullish() })
          .nullish(),
        groundingChunkIndices: z.array(z.number().int()).nullish(),
      }),
    )
    .nullish(),
});
export type GeminiGrounding = z.infer<typeof geminiGroundingSchema>;

const logprobCandidateSchema = z.looseObject({ token: z.string().nullish(), logProbability: z.number().nullish() });

/** Log probabilities: one chosen candidate and one list of top candidates per decoding step. */
export const geminiLogprobsSchema = z.looseObject({
  chosenCandidates: z.array(logprobCandidateSchema).nullish(),
  topCandidates: z.array(z.looseObject({ candidates: z.array(logprobCandidateSchema).nullish() })).nullish(),
});
export type GeminiLogprobs = z.infer<typeof geminiLogprobsSchema>;

/** A GenerateContentResponse: the whole answer of :generateContent, or one SSE event of :streamGenerateContent. */
export const geminiResponseSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        index: z.number().int().nonnegative().nullish(),
        content: z.looseObject({ parts: z.array(geminiResponsePartSchema).nullish() }).nullish(),
        finishReason: z.string().nullish(),
        groundingMetadata: geminiGroundingSchema.nullish(),
        logprobsResult: geminiLogprobsSchema.nullish(),
      }),
    )
    .nullish(),
  usageMetadata: geminiUsageSchema.nullish(),
  promptFeedback: z.looseObject({ blockReason: z.string().nullish() }).nullish(),
});
export type GeminiResponse = z.infer<typeof geminiResponseSchema>;

export const geminiModelListSchema = z.looseObject({
  models: z
    .array(
      z.looseObject({
        name: z.string().min(1),
        displayName: z.string().nullish(),
        inputTokenLimit: z.number().nullish(),
        supportedGenerationMethods: z.array(z.string()).nullish(),
      }),
    )
    .nullish(),
  nextPageToken: z.string().nullish(),
});
export type GeminiModelList = z.infer<typeof geminiModelListSchema>;
