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

/**
 * The chat's error when the gateway refuses a request for lack of credits. It names what to do in the app (not
 * the CLI's `credits add`), and the UI offers that action beside it.
 */
export const noCreditsError =
  'No credits left: add credits on the Activity screen, or remove the balance there to make spending unlimited.';
