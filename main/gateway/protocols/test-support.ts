// For the protocols' unit tests: the chat completion and chunks an encoder is fed, as the pipeline makes them, and
// the reasoning details of an Anthropic answer as they travel inside a chat message.

import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChunkDelta,
  FinishReason,
  ReasoningDetail,
  Usage,
} from '../../../shared/api/index.js';
import { anthropicReasoningFormat } from '../../providers/index.js';

type Message = ChatCompletion['choices'][number]['message'];

/** A whole answer of one choice. */
export function chatCompletion(
  message: Message,
  finish: ChatCompletion['choices'][number]['finish_reason'],
  { model = 'p/m', usage }: { model?: string; usage: Usage },
): ChatCompletion {
  return {
    id: 'gen-1',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message, finish_reason: finish }],
    usage,
  };
}

/** Usage of `prompt` and `completion` tokens (and their sum), with whatever details a test names. */
export function tokenUsage(prompt: number, completion: number, details: Partial<Usage> = {}): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, ...details };
}

/** One chunk of a stream, of one choice. */
export function chatChunk(delta: ChunkDelta, finish: FinishReason | null = null): ChatCompletionChunk {
  return {
    id: 'gen-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'p/m',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** Anthropic's thinking (signed) and redacted thinking, as the reasoning details of a chat message carry them. */
export const anthropicThinkingDetails: ReasoningDetail[] = [
  { type: 'reasoning.text', text: 'Hmm.', signature: 'EqQB', format: anthropicReasoningFormat, index: 0 },
  { type: 'reasoning.encrypted', data: 'EmwK', format: anthropicReasoningFormat, index: 1 },
];
