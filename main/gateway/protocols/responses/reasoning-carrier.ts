// What a reasoning item's `encrypted_content` carries: the generation's `reasoning_details` (Anthropic's thinking
// text with its signature and redacted thinking, Gemini's thought signatures, OpenRouter's reasoning details), as
// opaque base64url JSON behind a version prefix. The gateway keeps no responses, so a stateless client (Codex sends
// `store: false` and the whole history every turn) hands them back in the next request, and the upstream gets its
// signatures unchanged. Content that is not ours (OpenAI's own encrypted reasoning, say) is ignored, not an error.

import { z } from 'zod';
import { reasoningDetailSchema, type ReasoningDetail } from '../../../../shared/api/chat-request.js';

const versionPrefix = 'sy1.';
const detailsSchema = z.array(reasoningDetailSchema);

export function encodeReasoningDetails(details: readonly ReasoningDetail[]): string {
  return versionPrefix + Buffer.from(JSON.stringify(details), 'utf8').toString('base64url');
}

/** The reasoning details `encrypted_content` carries, or null when it is not content this gateway wrote. */
export function decodeReasoningDetails(encrypted: string): ReasoningDetail[] | null {
  if (!encrypted.startsWith(versionPrefix)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encrypted.slice(versionPrefix.length), 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = detailsSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
