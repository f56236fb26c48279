import type { ChatMessage } from '../../../shared/api/index.js';

/** The texts of a message's content: the string itself, or its text parts in order (images are skipped). */
export function textsOf(content: ChatMessage['content']): string[] {
  if (content == null) return [];
  if (typeof content === 'string') return [content];
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
}

/** All text of a message's content, joined (text parts are adjacent pieces of one text). */
export function textOf(content: ChatMessage['content']): string {
  return textsOf(content).join('');
}
