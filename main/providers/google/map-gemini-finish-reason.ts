import type { FinishReason } from '../../../shared/api/index.js';

/**
 * Gemini's finishReason → our finish_reason (the raw value travels as native_finish_reason). Gemini says STOP also
 * after function calls, so the turn's calls decide. A malformed or unexpected function call ended the turn without
 * a usable answer: `error`.
 */
export function mapGeminiFinishReason(finishReason: string | null | undefined, hadToolCalls: boolean): FinishReason {
  switch (finishReason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'LANGUAGE':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return 'content_filter';
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
    case 'TOO_MANY_TOOL_CALLS':
      return 'error';
    default: // STOP, OTHER, FINISH_REASON_UNSPECIFIED and values added later
      return hadToolCalls ? 'tool_calls' : 'stop';
  }
}
