// The open conversation as the UI shows it: what get-conversation returned, then kept current by the turn's
// events. Pure, so the same events always give the same screen.

import type { ChatEvent, ChatMessage, ConversationDetail, PendingApproval } from '../../../shared/bridge/types.js';

export interface ConversationState {
  detail: ConversationDetail | null;
  messages: ChatMessage[];
  approvals: PendingApproval[];
  running: boolean;
  /** The last failure of a turn or a send, until the next turn starts. */
  error: string | null;
  /** For each shown message that has other versions: the ids of all of them, oldest first. */
  versions: Record<string, string[]>;
  /**
   * A version being written (a regenerated reply, an edited message): the message that arrives after `parentId`
   * joins `siblings` as the newest version.
   */
  pendingVersion: { parentId: string | null; siblings: string[] } | null;
}

export type ConversationAction =
  | { type: 'loaded'; detail: ConversationDetail }
  | { type: 'reset' }
  | { type: 'events'; events: ChatEvent[] }
  /**
   * The user's message, shown at once; replaced by the stored one when send answers. The turn counts as running
   * from here: until it is stored the message has nothing to edit or delete, and Stop stands where Send was.
   */
  | { type: 'send-start'; message: ChatMessage }
  | { type: 'send-done'; localId: string; message: ChatMessage }
  | { type: 'send-failed'; localId: string; error: string }
  /**
   * Regenerate and edit: what follows `after` goes (and `after` becomes `replacement` when given). `newVersionOf`:
   * the message the coming one is a new version of.
   */
  | { type: 'history-cut'; after: string; replacement?: ChatMessage; newVersionOf?: ChatMessage }
  | { type: 'messages-removed'; ids: string[] }
  | { type: 'error'; error: string | null };

export const initialConversationState: ConversationState = {
  detail: null,
  messages: [],
  approvals: [],
  running: false,
  error: null,
  versions: {},
  pendingVersion: null,
};

export function conversationReducer(state: ConversationState, action: ConversationAction): ConversationState {
  switch (action.type) {
    case 'loaded':
      return {
        detail: action.detail,
        messages: action.detail.messages,
        approvals: action.detail.pendingApprovals,
        running: action.detail.running,
        error: null,
        versions: action.detail.versions ?? {},
        pendingVersion: null,
      };
    case 'reset':
      return initialConversationState;
    case 'events':
      return action.events.reduce(applyEvent, state);
    case 'send-start':
      return { ...state, messages: [...state.messages, action.message], running: true, error: null };
    case 'send-done':
      return withVersion(
        {
          ...state,
          messages: state.messages.map((message) => (message.id === action.localId ? action.message : message)),
        },
        action.message,
      );
    case 'send-failed':
      return {
        ...state,
        messages: state.messages.filter((message) => message.id !== action.localId),
        running: false,
        error: action.error,
      };
    case 'history-cut': {
      const at = state.messages.findIndex((message) => message.id === action.after);
      if (at < 0) return state;
      const kept = state.messages.slice(0, at + 1);
      if (action.replacement) kept[at] = action.replacement;
      const old = action.newVersionOf;
      const pendingVersion = old
        ? { parentId: old.parentId, siblings: state.versions[old.id] ?? [old.id] }
        : state.pendingVersion;
      return { ...state, messages: kept, error: null, pendingVersion };
    }
    case 'messages-removed':
      return { ...state, messages: state.messages.filter((message) => !action.ids.includes(message.id)) };
    case 'error':
      return { ...state, error: action.error };
  }
}

function updateMessage(state: ConversationState, id: string, change: (message: ChatMessage) => ChatMessage) {
  return { ...state, messages: state.messages.map((message) => (message.id === id ? change(message) : message)) };
}

function upsertMessage(state: ConversationState, message: ChatMessage): ConversationState {
  if (state.messages.some((existing) => existing.id === message.id)) {
    return updateMessage(state, message.id, () => message);
  }
  return withVersion({ ...state, messages: [...state.messages, message] }, message);
}

/** The awaited new version, when `message` is it. */
function withVersion(state: ConversationState, message: ChatMessage): ConversationState {
  const pending = state.pendingVersion;
  if (!pending || pending.parentId !== message.parentId || pending.siblings.includes(message.id)) return state;
  return {
    ...state,
    versions: { ...state.versions, [message.id]: [...pending.siblings, message.id] },
    pendingVersion: null,
  };
}

export function applyEvent(state: ConversationState, event: ChatEvent): ConversationState {
  switch (event.type) {
    case 'turn-start':
      return { ...state, running: true, error: null };
    case 'message-start':
    case 'message-finish':
      return upsertMessage(state, event.message);
    case 'tool-result':
      // A result follows its reply: one that follows nothing shown belongs to a version out of sight (a turn
      // stopped for a regenerate answers its waiting calls after the screen moved to the new version).
      if (event.message.parentId !== null && state.messages.at(-1)?.id !== event.message.parentId) return state;
      return upsertMessage(state, event.message);
    case 'text-delta':
      return updateMessage(state, event.messageId, (message) => ({
        ...message,
        content: `${typeof message.content === 'string' ? message.content : ''}${event.text}`,
      }));
    case 'reasoning-delta':
      return updateMessage(state, event.messageId, (message) => ({
        ...message,
        reasoning: `${message.reasoning ?? ''}${event.text}`,
      }));
    case 'usage':
      return updateMessage(state, event.messageId, (message) => ({ ...message, usage: event.usage, cost: event.cost }));
    case 'approval-required':
      return state.approvals.some((approval) => approval.toolCallId === event.approval.toolCallId)
        ? state
        : { ...state, approvals: [...state.approvals, event.approval] };
    case 'approval-resolved':
      return { ...state, approvals: state.approvals.filter((approval) => approval.toolCallId !== event.toolCallId) };
    case 'error':
      // A reply's failure is shown with the reply (message-list.tsx): not a second time under the transcript.
      if (event.messageId !== null && state.messages.some((message) => message.id === event.messageId)) return state;
      return { ...state, error: event.message };
    case 'turn-finish':
      return { ...state, running: false, approvals: [] };
    case 'tool-call':
      return state; // the call is part of its message (message-finish); the result follows
  }
}
