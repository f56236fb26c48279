import type { FinishReason } from '../../../shared/api/index.js';

/** Maps an OpenAI-compatible finish_reason to ours. Servers invent values (`eos`, `end_turn`…): those mean stop. */
export function mapOpenAIFinishReason(raw: string | null | undefined): FinishReason | null {
  switch (raw) {
    case null:
    case undefined:
    case '':
      return null;
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'length':
    case 'max_tokens':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    case 'error':
      return 'error';
    default:
      return 'stop';
  }
}
