// Where the API is served. `/api/v1` is the interface specification's own base, word for word: a chat request
// without `stream` streams. `/v1` serves the same API with OpenAI's semantics, where a request without `stream`
// gets one JSON object: every OpenAI-style client (the `openai` SDK's default create(), the AI SDK's
// generateText/generateObject, token.js, Mastra…) omits `stream` when it wants one object. Same keys, routes,
// rules and usage log on both. Where OpenAI's and OpenRouter's shapes of one answer differ, `/v1` answers OpenAI's
// (the openai SDKs' default base) and `/api/v1` OpenRouter's (its SDK's base): docs/decisions/012.

export interface ApiBase {
  prefix: '/api/v1' | '/v1';
  /** What a chat request without `stream` gets. */
  streamByDefault: boolean;
  /** Whose shape an answer takes where OpenAI's and OpenRouter's differ. */
  shapes: 'openrouter' | 'openai';
}

export const specBase: ApiBase = { prefix: '/api/v1', streamByDefault: true, shapes: 'openrouter' };
export const openAIBase: ApiBase = { prefix: '/v1', streamByDefault: false, shapes: 'openai' };
export const apiBases: readonly ApiBase[] = [specBase, openAIBase];

/** The /v1 base of the server whose interface base (as `Gateway.listen` reports it) is `…/api/v1`. */
export function openAIBaseUrlOf(baseUrl: string): string {
  return baseUrl.endsWith(specBase.prefix) ? baseUrl.slice(0, -specBase.prefix.length) + openAIBase.prefix : baseUrl;
}

/**
 * The Gemini API's own bases (main/gateway/protocols/gemini), at the root as Google serves it and under /api. Its
 * stable version, v1, is served under the API's bases above, beside the OpenAI routes.
 */
export const geminiBases = ['/v1beta', '/api/v1beta'] as const;

/** Whether a path is under one of the API's bases. */
export function isApiPath(path: string): boolean {
  return [...apiBases.map(({ prefix }) => prefix), ...geminiBases].some(
    (prefix) => path === prefix || path.startsWith(`${prefix}/`),
  );
}
