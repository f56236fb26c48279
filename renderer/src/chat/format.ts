// How numbers and texts read in the transcript.

import { formatCost, type Usage } from '../../../shared/api/index.js';
import { isAttachedTextPart } from '../../../shared/bridge/chat-message.js';
import type { ChatMessage } from '../../../shared/bridge/types.js';

/** Tokens and cost of a reply; a cost of null beside usage is a model without a price ("unpriced"). */
export function formatUsage(usage: Usage | null, cost: number | null): string {
  if (!usage) return '';
  const parts = [`${usage.prompt_tokens.toLocaleString()} in`, `${usage.completion_tokens.toLocaleString()} out`];
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (reasoning) parts.push(`${reasoning.toLocaleString()} reasoning`);
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (cached) parts.push(`${cached.toLocaleString()} cached`);
  parts.push(formatCost(cost ?? 0, cost === null));
  return parts.join(' · ');
}

/** Pretty JSON when it parses, the text as it is otherwise. */
export function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * The text of a message as the user wrote it or the model answered it (markdown source), without attachments
 * (images, attached resources and files).
 */
export function messageText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .filter((part) => part.type === 'text' && !isAttachedTextPart(part))
    .map((part) => part.text)
    .join('\n');
}

/** The content with its text replaced and its attachments kept (as main stores an edited message). */
export function withText(content: ChatMessage['content'], text: string): ChatMessage['content'] {
  const attached =
    typeof content === 'string'
      ? []
      : (content ?? []).filter((part) => part.type !== 'text' || isAttachedTextPart(part));
  if (attached.length === 0) return text;
  return [...(text.trim() === '' ? [] : [{ type: 'text' as const, text }]), ...attached];
}
