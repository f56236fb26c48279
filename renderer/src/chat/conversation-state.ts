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
}

export type ConversationAction =
  | { type: 'loaded'; detail: ConversationDetail }
  | { type: 'reset' }
  | { type: 'events'; events: ChatEvent[] }
  /** The user's message, shown at once; replaced by the stored one when send answers. */
  | { type: 'send-start'; message: ChatMessage }
  | { type: 'send-done'; localId: string; message: ChatMessage }
  | { type: 'send-failed'; localId: string; error: string }
  /** Regenerate and edit: what follows `after` goes (and `after` becomes `replacement` when given). */
  | { type: 'history-cut'; after: string; replacement?: ChatMessage }
  | { type: 'messages-removed'; ids: string[] }
  | { type: 'error'; error: string | null };

export const initialConversationState: ConversationState = {
  detail: null,
  messages: [],
  approvals: [],
  running: false,
  error: null,
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
      };
    case 'reset':
      return initialConversationState;
    case 'events':
      return action.events.reduce(applyEvent, state);
    case 'send-start':
      return { ...state, messages: [...state.messages, action.message], error: null };
    case 'send-done':
      return {
        ...state,
        messages: state.messages.map((message) => (message.id === action.localId ? action.message : message)),
      };
    case 'send-failed':
      return {
        ...state,
        messages: state.messages.filter((message) => message.id !== action.localId),
        error: action.error,
      };
    case 'history-cut': {
      const at = state.messages.findIndex((message) => message.id === action.after);
      if (at < 0) return state;
      const kept = state.messages.slice(0, at + 1);
      if (action.replacement) kept[at] = action.replacement;
      return { ...state, messages: kept, error: null };
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
  return { ...state, messages: [...state.messages, message] };
}

export function applyEvent(state: ConversationState, event: ChatEvent): ConversationState {
  switch (event.type) {
    case 'turn-start':
      return { ...state, running: true, error: null };
    case 'message-start':
    case 'message-finish':
    case 'tool-result':
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
