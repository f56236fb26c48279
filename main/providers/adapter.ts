// The contract between the gateway and one upstream kind. Routes depend on this, never on an adapter's internals.
// Adapters turn our validated ChatRequest into the upstream's protocol and its answers back into our shapes.

import type {
  ChatCompletion,
  ChatRequest,
  ChoiceLogprobs,
  EmbeddingsRequest,
  LegacyCompletionRequest,
  ChunkDelta,
  FinishReason,
  ModelInfo,
  ProviderInfo,
  ProviderKind,
  Usage,
} from '../../shared/api/index.js';

/** Where one request goes: the provider, its secret (null when it has none) and the model name upstream. */
export interface UpstreamTarget {
  provider: ProviderInfo;
  apiKey: string | null;
  /** The `<model>` part of `<provider>/<model>`, as the upstream names it. */
  model: string;
  /**
   * Other secrets of the request (the caller's gateway key) that must never come back to the caller, whatever
   * the upstream echoes. The provider's `apiKey` is always scrubbed as well.
   */
  callerSecrets?: readonly string[];
  /** Headers to add to this request upstream (a `traceparent` continuing the caller's trace). */
  extraHeaders?: Readonly<Record<string, string>>;
}

/** One event of a translated stream; the gateway adds id, created and model and writes the chunks. */
export type StreamPart =
  | {
      type: 'delta';
      index: number;
      delta: ChunkDelta;
      finish_reason?: FinishReason | null;
      native_finish_reason?: string | null;
      /** The log probabilities of the tokens of this delta, passed on as the chunk's `choices[].logprobs`. */
      logprobs?: ChoiceLogprobs;
    }
  | { type: 'usage'; usage: Usage };

/** A completion as an adapter returns it; the gateway sets id, created, model and provider. */
export type AdapterCompletion = Pick<ChatCompletion, 'choices' | 'usage' | 'system_fingerprint'>;

/** Embeddings as an adapter returns them, in input order; the gateway sets the model and prices the usage. */
export interface AdapterEmbeddings {
  embeddings: { index: number; embedding: number[] | string }[];
  /** Null when the upstream reports no token counts. */
  usage: { prompt_tokens: number; total_tokens: number } | null;
}

/** A legacy completion as the upstream answered it: one JSON object, or the `data:` payloads of its stream. */
export type LegacyCompletionAnswer = { whole: Record<string, unknown> } | { events: AsyncIterable<string> };

/**
 * A request in the upstream's own protocol, passed through untranslated: Anthropic Messages to an anthropic-kind
 * provider, the Gemini API to a google-kind one. The adapter sets the model (target.model), the provider's key and
 * its base URL; everything else is the caller's.
 */
export interface NativeCall {
  /** What to call, in the protocol's own words: `messages`, `count_tokens`; `generateContent`, `countTokens`… */
  operation: string;
  body: Record<string, unknown>;
  /** Whether to ask for a stream. */
  stream: boolean;
  /** Protocol headers of the caller to pass on (`anthropic-version`, `anthropic-beta`). */
  headers?: Record<string, string>;
}

/** An upstream's native answer: one JSON object, or its stream's events (`event` as the upstream named it). */
export type NativeAnswer =
  { whole: Record<string, unknown> } | { events: AsyncIterable<{ event?: string; data: string }> };

export interface ProviderAdapter {
  readonly kind: ProviderKind;

  /** The provider's models. Throws ApiError when the upstream cannot be asked. */
  listModels(target: Omit<UpstreamTarget, 'model'>, signal: AbortSignal): Promise<ModelInfo[]>;

  /**
   * Starts a streamed generation. Resolves once the upstream accepted the request (status 2xx); rejects with
   * an ApiError (metadata.provider_name set) when it did not. The iterable throws an ApiError on a failure
   * mid-stream and ends when the upstream ends. Once `signal` aborts, the upstream request is torn down at once and
   * the pending promise or iteration rejects with `signal.reason`.
   */
  streamChat(request: ChatRequest, target: UpstreamTarget, signal: AbortSignal): Promise<AsyncIterable<StreamPart>>;

  /** A whole generation (stream = false). Rejects with an ApiError like streamChat. */
  completeChat(request: ChatRequest, target: UpstreamTarget, signal: AbortSignal): Promise<AdapterCompletion>;

  /**
   * Embeddings of the request's input, when the kind has an embeddings API. Rejects with an ApiError like
   * streamChat; a 400 for input the upstream cannot take (token ids for Gemini).
   */
  embed?(request: EmbeddingsRequest, target: UpstreamTarget, signal: AbortSignal): Promise<AdapterEmbeddings>;

  /**
   * POST /completions (legacy text completions), passed through to an OpenAI-compatible upstream with its model
   * name: resolves once the upstream answered 2xx. Only openai-kind adapters have it.
   */
  legacyCompletion?(
    request: LegacyCompletionRequest,
    target: UpstreamTarget,
    signal: AbortSignal,
  ): Promise<LegacyCompletionAnswer>;

  /**
   * The upstream's own protocol, untranslated (NativeCall): resolves once the upstream answered 2xx, rejects with an
   * ApiError like streamChat. Only kinds whose protocol the gateway also serves inbound have it (anthropic, google).
   */
  native?(call: NativeCall, target: UpstreamTarget, signal: AbortSignal): Promise<NativeAnswer>;

  /** Releases what the adapter owns (connection pools). The registry's close() calls it. */
  close?(): Promise<void>;
}
