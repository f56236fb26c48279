// Wire shapes of the chat-completions interface (spec 2.1–2.7), as our callers send and receive them. The request
// side is derived from its schema in chat-request.ts; the answers are described here.

export type {
  ChatMessage,
  ChatRequest,
  ContentPart,
  FunctionTool,
  ImagePart,
  FilePart,
  AudioPart,
  RefusalPart,
  ReasoningDetail,
  ReasoningRequest,
  Role,
  TextPart,
  ToolCall,
  ToolChoice,
} from './chat-request.js';
import type { ReasoningDetail, ToolCall } from './chat-request.js';

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error';

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
  /** Tools the provider ran itself and bills per use (Anthropic's web search). */
  server_tool_use?: { web_search_requests?: number };
  /** USD. */
  cost?: number;
}

/** A tool-call fragment in a stream delta (OpenAI convention: the first fragment of a call has id and name). */
export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

/**
 * A web search the upstream ran itself while answering (Anthropic's web search tool, Gemini's Google Search
 * grounding). The Responses API answers with a `web_search_call` item for it; chat completions leave it out (their
 * answer carries what was found as `url_citation` annotations).
 */
export interface WebSearchCall {
  /** What was searched for. */
  queries: string[];
  /** The pages found. */
  sources: { url: string; title?: string }[];
  /** The search failed (the model answers without its results). */
  failed?: boolean;
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string | null;
  /** What the model said instead of answering (OpenAI's structured-output refusals). */
  refusal?: string | null;
  /** Citations (`url_citation`) of the text streamed so far. */
  annotations?: unknown[];
  reasoning?: string | null;
  reasoning_details?: ReasoningDetail[];
  tool_calls?: ToolCallDelta[];
  /** Searches the upstream ran, each whole once its results are in; never sent to chat-completions callers. */
  web_search_calls?: WebSearchCall[];
}

export interface ChunkChoice {
  index: number;
  delta: ChunkDelta;
  finish_reason: FinishReason | null;
  native_finish_reason?: string | null;
  /** The log probabilities of this chunk's tokens, when the caller asked (`logprobs`) and the upstream sent them. */
  logprobs?: ChoiceLogprobs | null;
}

/** OpenAI's `choices[].logprobs`: each token generated, its log probability and the most likely alternatives. */
export interface ChoiceLogprobs {
  content: TokenLogprob[] | null;
  refusal?: TokenLogprob[] | null;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
  /** The token's UTF-8 bytes. */
  bytes: number[] | null;
  top_logprobs: { token: string; logprob: number; bytes: number[] | null }[];
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  provider?: string;
  choices: ChunkChoice[];
  usage?: Usage;
  error?: { code: number; message: string; metadata: Record<string, unknown> };
}

export interface CompletionMessage {
  role: 'assistant';
  content: string | null;
  /** Always present in a whole answer, null unless the model refused (OpenAI's schema requires the field). */
  refusal?: string | null;
  /** Citations (`url_citation`) and whatever else the upstream annotated the answer with. */
  annotations?: unknown[];
  reasoning?: string | null;
  reasoning_details?: ReasoningDetail[];
  tool_calls?: ToolCall[];
  /** Searches the upstream ran, in order; never sent to chat-completions callers. */
  web_search_calls?: WebSearchCall[];
}

export interface CompletionChoice {
  index: number;
  message: CompletionMessage;
  finish_reason: FinishReason | null;
  native_finish_reason?: string | null;
  /** Always present in a whole answer, null unless the upstream sent log probabilities. */
  logprobs?: unknown;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  provider?: string;
  choices: CompletionChoice[];
  usage: Usage;
  /**
   * The upstream's backend configuration when it sent one. Without one it is left out, except in a whole answer on
   * /api/v1, where OpenRouter's schema requires the field (null).
   */
  system_fingerprint?: string | null;
}

/** An entry of GET /models (OpenRouter's shape, the fields we can know). */
export interface ModelInfo {
  id: string;
  name: string;
  created?: number;
  owned_by?: string;
  context_length?: number | null;
  architecture?: { input_modalities: string[]; output_modalities: string[] };
}
