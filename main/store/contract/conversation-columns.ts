// A conversation as its row holds it, for both engines: the stop sequences are a JSON list in one text column and
// `pinned` is SQLite's 0/1 (PostgreSQL's boolean), so a row is turned into a Conversation here, in one place.

import type { ChatReasoningEffort, Conversation } from '../../../shared/bridge/types.js';

/**
 * Read under the Conversation's own field names (the SQL aliases them), every setting present (null when unset),
 * before the conversions below.
 */
export type ConversationColumns = Required<Omit<Conversation, 'stop' | 'reasoningEffort' | 'pinned'>> & {
  /** A JSON list of strings; null: none. */
  stop: string | null;
  reasoningEffort: string | null;
  pinned: number | boolean;
};

const reasoningEfforts: readonly string[] = ['low', 'medium', 'high'] satisfies ChatReasoningEffort[];

export function toConversation(columns: ConversationColumns): Conversation {
  return {
    ...columns,
    stop: stopList(columns.stop),
    reasoningEffort: reasoningEfforts.includes(columns.reasoningEffort ?? '')
      ? (columns.reasoningEffort as ChatReasoningEffort)
      : null,
    pinned: Boolean(columns.pinned),
  };
}

/** For SQLite, which binds no booleans. */
export function toConversationColumns(conversation: Conversation): ConversationColumns & { pinned: number } {
  return {
    id: conversation.id,
    title: conversation.title,
    model: conversation.model,
    systemPrompt: conversation.systemPrompt,
    temperature: conversation.temperature,
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    maxTokens: conversation.maxTokens ?? null,
    topP: conversation.topP ?? null,
    seed: conversation.seed ?? null,
    stop: stopText(conversation.stop),
    reasoningEffort: conversation.reasoningEffort ?? null,
    pinned: conversation.pinned ? 1 : 0,
    folderId: conversation.folderId ?? null,
  };
}

export function stopText(stop: readonly string[] | undefined): string | null {
  return stop && stop.length > 0 ? JSON.stringify(stop) : null;
}

export function stopList(text: string | null): string[] {
  if (text === null) return [];
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return []; // a damaged cell loses its stop sequences, not the conversation
  }
}
