// Wire shapes of the chat-completions interface (spec 2.1–2.7), as our callers send and receive them.
// Types only: this file is shared by main, preload and renderer and imports nothing.

export type Role = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export type ContentPart = TextPart | ImagePart;

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One item of `reasoning_details` (OpenRouter's convention); opaque fields are kept as they came. */
export interface ReasoningDetail {
  type: 'reasoning.text' | 'reasoning.summary' | 'reasoning.encrypted';
  format?: string;
  index?: number;
  id?: string | null;
  text?: string;
  signature?: string | null;
  summary?: string;
  data?: string;
  [extra: string]: unknown;
}

export interface ChatMessage {
  role: Role;
  content: string | ContentPart[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  reasoning?: string | null;
  reasoning_details?: ReasoningDetail[];
}

export interface FunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export interface ReasoningRequest {
  effort?: 'minimal' | 'low' | 'medium' | 'high';
  max_tokens?: number;
  exclude?: boolean;
  enabled?: boolean;
}

/** A validated chat request. `stream` is always set after validation (default true). */
export interface ChatRequest {
  model: string;
  models?: string[];
  messages: ChatMessage[];
  stream: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: FunctionTool[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  stop?: string | string[];
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  response_format?: Record<string, unknown>;
  reasoning?: ReasoningRequest;
  user?: string;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error';

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
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

export interface ChunkDelta {
  role?: 'assistant';
  content?: string | null;
  reasoning?: string | null;
  reasoning_details?: ReasoningDetail[];
  tool_calls?: ToolCallDelta[];
}

export interface ChunkChoice {
  index: number;
  delta: ChunkDelta;
  finish_reason: FinishReason | null;
  native_finish_reason?: string | null;
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
  reasoning?: string | null;
  reasoning_details?: ReasoningDetail[];
  tool_calls?: ToolCall[];
}

export interface CompletionChoice {
  index: number;
  message: CompletionMessage;
  finish_reason: FinishReason | null;
  native_finish_reason?: string | null;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  provider?: string;
  choices: CompletionChoice[];
  usage: Usage;
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
