// The chat's messages as both engines' rows hold them, and the changes a conversation or message may take. JSON
// columns hold what has no fixed shape (content parts, tool calls, usage, reasoning details).

import type { ContentPart, ReasoningDetail, Usage } from '../../../shared/api/index.js';
import type {
  ChatMessage,
  ChatSettings,
  ChatToolCall,
  Conversation,
  MessageStatus,
} from '../../../shared/bridge/types.js';

/** A message as its row holds it (both engines). */
export interface MessageColumns {
  id: string;
  conversation_id: string;
  role: string;
  content: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
  reasoning: string | null;
  reasoning_details: string | null;
  usage: string | null;
  cost: number | null;
  model: string | null;
  status: string;
  error: string | null;
  created_at: number;
  search_text: string;
  parent_id: string | null;
  chosen_order: number;
}

export type ConversationChanges = Partial<
  Pick<Conversation, 'title' | 'model' | 'systemPrompt' | 'temperature'> & Omit<ChatSettings, 'systemPrompt'>
>;
export type MessageChanges = Partial<
  Pick<
    ChatMessage,
    'content' | 'toolCalls' | 'reasoning' | 'reasoningDetails' | 'usage' | 'cost' | 'status' | 'error' | 'chosenOrder'
  >
>;

export function definedOnly<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

function parsed<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null; // a damaged cell loses its value, not the whole conversation
  }
}

/** What search looks at: the text of the content, never image data. */
function searchTextOf(content: ChatMessage['content']): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((part): part is Extract<ContentPart, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

export function toMessageColumns(message: ChatMessage): MessageColumns {
  return {
    id: message.id,
    conversation_id: message.conversationId,
    role: message.role,
    content: json(message.content),
    tool_calls: json(message.toolCalls),
    tool_call_id: message.toolCallId,
    reasoning: message.reasoning,
    reasoning_details: json(message.reasoningDetails),
    usage: json(message.usage),
    cost: message.cost,
    model: message.model,
    status: message.status,
    error: message.error,
    created_at: message.createdAt,
    search_text: searchTextOf(message.content),
    parent_id: message.parentId,
    chosen_order: message.chosenOrder,
  };
}

export function toMessage(columns: MessageColumns): ChatMessage {
  return {
    id: columns.id,
    conversationId: columns.conversation_id,
    role: columns.role as ChatMessage['role'],
    content: parsed<ChatMessage['content']>(columns.content),
    toolCalls: parsed<ChatToolCall[]>(columns.tool_calls),
    toolCallId: columns.tool_call_id,
    reasoning: columns.reasoning,
    reasoningDetails: parsed<ReasoningDetail[]>(columns.reasoning_details),
    usage: parsed<Usage>(columns.usage),
    cost: columns.cost,
    model: columns.model,
    status: columns.status as MessageStatus,
    error: columns.error,
    createdAt: columns.created_at,
    parentId: columns.parent_id,
    chosenOrder: Number(columns.chosen_order),
  };
}
