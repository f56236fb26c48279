// Our validated ChatRequest → the body of an OpenAI-compatible POST /chat/completions. Every field the gateway does
// not consume itself travels as it came, future ones included (shared/api/chat-request.ts keeps the one list of
// what it consumes), as OpenRouter forwards them; OpenRouter's own fields go to OpenRouter alone, since strict
// servers (OpenAI's) answer 400 to fields they do not know. `reasoning` is spelled as the host understands it, and
// usage is always asked for on a stream.

import {
  forwardedFieldsOf,
  openRouterOnlyFields,
  type ChatMessage,
  type ChatRequest,
} from '../../../shared/api/index.js';

export interface OpenAIBodyOptions {
  /** The model name as the upstream knows it (the part after `<provider>/`). */
  upstreamModel: string;
  /** OpenRouter-like hosts understand `reasoning` objects and reasoning fields on assistant messages. */
  openRouterLike: boolean;
  /** Whether to ask for a stream; the request's own `stream` when absent. */
  stream?: boolean;
}

/** Plain OpenAI-compatible servers know nothing of OpenRouter's reasoning fields on messages; OpenAI rejects them. */
function withoutReasoningFields(message: ChatMessage): ChatMessage {
  if (message.reasoning === undefined && message.reasoning_details === undefined) return message;
  const { reasoning: _reasoning, reasoning_details: _details, ...rest } = message;
  return rest;
}

export function buildOpenAIRequestBody(request: ChatRequest, options: OpenAIBodyOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: options.upstreamModel,
    messages: options.openRouterLike ? request.messages : request.messages.map(withoutReasoningFields),
  };
  const given = request as Record<string, unknown>;
  for (const field of forwardedFieldsOf(request)) {
    if (!options.openRouterLike && (openRouterOnlyFields as readonly string[]).includes(field)) continue;
    body[field] = given[field];
  }
  if (options.openRouterLike && request.provider !== undefined) body.provider = request.provider;
  if (request.reasoning !== undefined) {
    if (options.openRouterLike) body.reasoning = request.reasoning;
    else if (request.reasoning.effort !== undefined) body.reasoning_effort = request.reasoning.effort;
  }
  const stream = options.stream ?? request.stream;
  body.stream = stream;
  // Usage must be known for every stream (usage log, final chunk); the caller's own stream_options do not matter.
  if (stream) body.stream_options = { include_usage: true };
  return body;
}
