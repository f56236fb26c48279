// A chat message as both sides first build it: what is given, every other field empty (null).

import type { ContentPart } from '../api/index.js';
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
    parentId: null,
    chosenOrder: 0,
    ...fields,
  };
}

/**
 * The chat's error when the gateway refuses a request for lack of credits. It names what to do in the app (not
 * the CLI's `credits add`), and the UI offers that action beside it.
 */
export const noCreditsError =
  'No credits left: add credits on the Activity screen, or remove the balance there to make spending unlimited.';

/** An MCP resource attached to a message of the user's, as the text part that carries it. */
export interface AttachedResource {
  server: string;
  uri: string;
  mimeType?: string;
}

/**
 * The text part of an attached text resource: the model reads a line naming it, then its text; the `resource`
 * field (left out of what is sent, see main/chat/request-messages.ts) lets the UI show it as an attachment.
 */
export function resourceTextPart(resource: AttachedResource, text: string): ContentPart {
  const type = resource.mimeType ? ` (${resource.mimeType})` : '';
  return { type: 'text', text: `Attached resource ${resource.uri}${type}:\n\n${text}`, resource };
}

/** The resource a text part carries, or null for the user's own text and every other part. */
export function resourceOfPart(part: ContentPart): AttachedResource | null {
  if (part.type !== 'text' || typeof part.resource !== 'object' || part.resource === null) return null;
  const { server, uri, mimeType } = part.resource as Record<string, unknown>;
  if (typeof server !== 'string' || typeof uri !== 'string') return null;
  return { server, uri, ...(typeof mimeType === 'string' ? { mimeType } : {}) };
}

/**
 * The stored tool message of each call of the reply at `at`, by position: results follow their reply, and the
 * n-th call with a given id takes the n-th result with that id.
 */
export function resultsOf(
  calls: readonly { id: string }[],
  history: readonly ChatMessage[],
  at: number,
): (ChatMessage | undefined)[] {
  const end = history.findIndex((message, index) => index > at && message.role !== 'tool');
  const following = history.slice(at + 1, end === -1 ? undefined : end);
  const used = new Set<ChatMessage>();
  return calls.map((call) => {
    const result = following.find((message) => message.toolCallId === call.id && !used.has(message));
    if (result) used.add(result);
    return result;
  });
}
