// A chat message as both sides first build it: what is given, every other field empty (null).

import type { ChatMessage } from './types.js';

type RequiredFields = 'id' | 'conversationId' | 'role' | 'status' | 'createdAt';

export function newChatMessage(fields: Pick<ChatMessage, RequiredFields> & Partial<ChatMessage>): ChatMessage {
  return {
    content: null,
    toolCalls: null,
    toolCallId: null,
    reasoning: null,
    reasoningDetails: null,
    usage: null,
    cost: null,
    model: null,
    error: null,
    ...fields,
  };
}
