// A chat completion → Anthropic's Message, as the Messages API answers a request without `stream`: reasoning as
// thinking blocks first (thinking-blocks.ts), then the text, then one tool_use block a tool call; the finish reason
// as Anthropic's stop_reason; usage as Anthropic counts it (input_tokens without the cached part).

import type { ChatCompletion, FinishReason, Usage } from '../../../../shared/api/index.js';
import { reasoningBlocksOf, type OutboundReasoningBlock } from './thinking-blocks.js';

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal';

export interface AnthropicUsageOut {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export type MessageBlock =
  | OutboundReasoningBlock
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface AnthropicMessageOut {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: MessageBlock[];
  stop_reason: StopReason | null;
  stop_sequence: string | null;
  usage: AnthropicUsageOut;
}

const anthropicStopReasons = new Set<string>([
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
]);

/** Our finish reason → Anthropic's stop_reason; an upstream's own Anthropic value (native_finish_reason) wins. */
export function anthropicStopReason(
  finishReason: FinishReason | null | undefined,
  nativeFinishReason?: string | null,
): StopReason | null {
  if (nativeFinishReason && anthropicStopReasons.has(nativeFinishReason)) return nativeFinishReason as StopReason;
  switch (finishReason) {
    case 'tool_calls':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    case null:
    case undefined:
      return null;
    default:
      return 'end_turn';
  }
}

/** Our usage → Anthropic's: the prompt split into uncached input, cache reads and cache writes. */
export function anthropicUsageOf(usage: Usage | null | undefined): AnthropicUsageOut {
  const cacheRead = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  const cacheWrite = usage?.prompt_tokens_details?.cache_write_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.prompt_tokens ?? 0) - cacheRead - cacheWrite),
    output_tokens: usage?.completion_tokens ?? 0,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  };
}

/** A tool call's arguments as Anthropic's `input` object; what is not a JSON object is kept under `input`. */
export function toolInputOf(argumentsText: string): Record<string, unknown> {
  if (argumentsText.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(argumentsText);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // not JSON: handed over as it came
  }
  return { input: argumentsText };
}

/** `msg_…` from the generation's id, so the usage log and the answer name the same request. */
export function messageIdOf(generationId: string): string {
  return `msg_${generationId.replace(/^gen-/, '').replace(/[^A-Za-z0-9]/g, '')}`;
}

export function messageOf(completion: ChatCompletion, id: string): AnthropicMessageOut {
  const choice = completion.choices[0];
  const message = choice?.message;
  const content: MessageBlock[] = [...reasoningBlocksOf(message?.reasoning, message?.reasoning_details)];
  const text = (message?.content ?? '') + (message?.refusal ?? '');
  if (text !== '') content.push({ type: 'text', text });
  for (const call of message?.tool_calls ?? []) {
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: toolInputOf(call.function.arguments),
    });
  }
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: completion.model,
    content,
    stop_reason: anthropicStopReason(choice?.finish_reason, choice?.native_finish_reason),
    stop_sequence: null,
    usage: anthropicUsageOf(completion.usage),
  };
}
