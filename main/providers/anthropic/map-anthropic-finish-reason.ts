import type { FinishReason } from '../../../shared/api/index.js';

/** Anthropic's stop_reason → our finish_reason (the raw value travels as native_finish_reason). */
export function mapAnthropicFinishReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default: // end_turn, stop_sequence, pause_turn, and values added later
      return 'stop';
  }
}
