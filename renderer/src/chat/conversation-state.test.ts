// The open conversation's reducer: a loaded conversation, then the turn's events, give the screen's state.

import { describe, expect, it } from 'vitest';
import { newChatMessage } from '../../../shared/bridge/chat-message.js';
import type { ChatEvent, ChatMessage, ConversationDetail, PendingApproval } from '../../../shared/bridge/types.js';
import { conversationReducer, initialConversationState, type ConversationState } from './conversation-state.js';

const conversationId = 'conv-1';

function message(id: string, change: Partial<ChatMessage> = {}): ChatMessage {
  return newChatMessage({
    id,
    conversationId,
    role: 'assistant',
    model: 'fake/echo-1',
    status: 'streaming',
    createdAt: 1,
    ...change,
  });
}

function approval(toolCallId: string): PendingApproval {
  return {
    conversationId,
    messageId: 'assistant-1',
    toolCallId,
    functionName: 'fs__read_file',
    server: 'fs',
    tool: 'read_file',
    arguments: '{"path":"a.txt"}',
  };
}

function detail(change: Partial<ConversationDetail> = {}): ConversationDetail {
  return {
    conversation: {
      id: conversationId,
      title: 'A chat',
      model: 'fake/echo-1',
      systemPrompt: '',
      temperature: null,
      createdAt: 1,
      updatedAt: 1,
    },
    messages: [message('user-1', { role: 'user', content: 'hi', status: 'complete' })],
    pendingApprovals: [],
    running: false,
    ...change,
  };
}

const events = (state: ConversationState, ...list: ChatEvent[]) =>
  conversationReducer(state, { type: 'events', events: list });

const loaded = (change: Partial<ConversationDetail> = {}) =>
  conversationReducer(initialConversationState, { type: 'loaded', detail: detail(change) });

describe('conversationReducer', () => {
  it('takes messages, approvals and the running flag from a loaded conversation, and clears the error', () => {
    const withError = conversationReducer(initialConversationState, { type: 'error', error: 'old failure' });
    const state = conversationReducer(withError, {
      type: 'loaded',
      detail: detail({ pendingApprovals: [approval('call-1')], running: true }),
    });
    expect(state).toEqual({
      detail: detail({ pendingApprovals: [approval('call-1')], running: true }),
      messages: [message('user-1', { role: 'user', content: 'hi', status: 'complete' })],
      approvals: [approval('call-1')],
      running: true,
      error: null,
      versions: {},
      pendingVersion: null,
    });
    expect(conversationReducer(state, { type: 'reset' })).toBe(initialConversationState);
  });

  it('builds a streamed reply from its start, text and reasoning deltas, usage and finish', () => {
    let state = events(
      loaded(),
      { type: 'turn-start', conversationId },
      { type: 'message-start', conversationId, message: message('assistant-1') },
      { type: 'reasoning-delta', conversationId, messageId: 'assistant-1', text: 'Think' },
      { type: 'reasoning-delta', conversationId, messageId: 'assistant-1', text: 'ing.' },
      { type: 'text-delta', conversationId, messageId: 'assistant-1', text: 'Hel' },
      { type: 'text-delta', conversationId, messageId: 'assistant-1', text: 'lo' },
    );
    expect(state.running).toBe(true);
    expect(state.messages.map((each) => each.id)).toEqual(['user-1', 'assistant-1']);
    expect(state.messages[1]).toMatchObject({ content: 'Hello', reasoning: 'Thinking.', status: 'streaming' });

    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
    state = events(state, { type: 'usage', conversationId, messageId: 'assistant-1', usage, cost: 0.25 });
    expect(state.messages[1]).toMatchObject({ usage, cost: 0.25 });

    const finished = message('assistant-1', { content: 'Hello', status: 'complete', usage, cost: 0.25 });
    state = events(
      state,
      { type: 'message-finish', conversationId, message: finished },
      { type: 'turn-finish', conversationId, reason: 'done' },
    );
    expect(state.messages).toHaveLength(2);
    expect(state.messages[1]).toBe(finished);
    expect(state.running).toBe(false);
  });

  it('ignores deltas for a message it does not have', () => {
    const state = loaded();
    const after = events(state, { type: 'text-delta', conversationId, messageId: 'elsewhere', text: 'lost' });
    expect(after.messages).toEqual(state.messages);
  });

  it('keeps each approval once, drops a resolved one, and clears them all when the turn ends', () => {
    let state = events(
      loaded({ running: true }),
      { type: 'approval-required', conversationId, approval: approval('call-1') },
      { type: 'approval-required', conversationId, approval: approval('call-1') },
      { type: 'approval-required', conversationId, approval: approval('call-2') },
    );
    expect(state.approvals.map((each) => each.toolCallId)).toEqual(['call-1', 'call-2']);
    state = events(state, { type: 'approval-resolved', conversationId, toolCallId: 'call-1', decision: 'once' });
    expect(state.approvals.map((each) => each.toolCallId)).toEqual(['call-2']);
    state = events(state, { type: 'turn-finish', conversationId, reason: 'stopped' });
    expect(state.approvals).toEqual([]);
  });

  it('adds a tool result as a message, and leaves the state alone for the tool call itself', () => {
    const state = loaded();
    const toolCall = { id: 'call-1', type: 'function' as const, function: { name: 'fs__read_file', arguments: '{}' } };
    expect(events(state, { type: 'tool-call', conversationId, messageId: 'a', toolCall, autoApproved: true })).toBe(
      state,
    );
    const result = message('tool-1', { role: 'tool', toolCallId: 'call-1', content: 'file text', status: 'complete' });
    expect(events(state, { type: 'tool-result', conversationId, message: result }).messages.at(-1)).toBe(result);
  });

  it('shows a turn’s error until the next turn starts', () => {
    let state = events(loaded(), { type: 'error', conversationId, messageId: null, message: 'upstream failed' });
    expect(state.error).toBe('upstream failed');
    state = events(state, { type: 'turn-start', conversationId });
    expect(state.error).toBeNull();
  });

  it('leaves a reply’s error to the reply, which shows it', () => {
    const failed = message('reply-1', { role: 'assistant', status: 'error', error: 'the key was refused' });
    const state = events(
      loaded(),
      { type: 'message-finish', conversationId, message: failed },
      { type: 'error', conversationId, messageId: 'reply-1', message: 'the key was refused' },
    );
    expect(state.messages.at(-1)).toMatchObject({ id: 'reply-1', error: 'the key was refused' });
    expect(state.error).toBeNull();
  });

  it('shows the user’s message at once, then replaces it with the stored one', () => {
    const local = message('local-1', { role: 'user', content: 'again', status: 'complete' });
    const stored = message('user-2', { role: 'user', content: 'again', status: 'complete' });
    let state = conversationReducer(loaded(), { type: 'error', error: 'old' });
    state = conversationReducer(state, { type: 'send-start', message: local });
    expect(state.messages.map((each) => each.id)).toEqual(['user-1', 'local-1']);
    expect(state.error).toBeNull();
    // Not stored yet: nothing to edit or delete, so the turn counts as running (Stop, not Send).
    expect(state.running).toBe(true);
    state = conversationReducer(state, { type: 'send-done', localId: 'local-1', message: stored });
    expect(state.messages.map((each) => each.id)).toEqual(['user-1', 'user-2']);
  });

  it('takes a failed send’s message back off the screen and says why', () => {
    const local = message('local-1', { role: 'user', content: 'again', status: 'complete' });
    let state = conversationReducer(loaded(), { type: 'send-start', message: local });
    state = conversationReducer(state, { type: 'send-failed', localId: 'local-1', error: 'no model chosen' });
    expect(state.messages.map((each) => each.id)).toEqual(['user-1']);
    expect(state.error).toBe('no model chosen');
    expect(state.running).toBe(false);
  });

  it('cuts the history after a message for regenerate and edit, replacing that message when told', () => {
    const messages = ['user-1', 'reply-1', 'user-2', 'reply-2'].map((id) =>
      message(id, { role: id.startsWith('user') ? 'user' : 'assistant', status: 'complete' }),
    );
    const state = { ...loaded(), messages, error: 'rate limited' };
    const regenerated = conversationReducer(state, { type: 'history-cut', after: 'user-2' });
    expect(regenerated.messages.map((each) => each.id)).toEqual(['user-1', 'reply-1', 'user-2']);
    expect(regenerated.error).toBeNull();
    const edited = message('user-1', { role: 'user', content: 'edited', status: 'complete' });
    const cut = conversationReducer(state, { type: 'history-cut', after: 'user-1', replacement: edited });
    expect(cut.messages).toEqual([edited]);
    expect(conversationReducer(state, { type: 'history-cut', after: 'gone' })).toBe(state);
  });

  it('takes the versions of a loaded conversation, none when it has none', () => {
    expect(loaded({ versions: { 'user-1': ['user-0', 'user-1'] } }).versions).toEqual({
      'user-1': ['user-0', 'user-1'],
    });
    expect(loaded().versions).toEqual({});
  });

  it('adds a regenerated reply as the newest version of the one it replaces when it starts', () => {
    const question = message('user-1', { role: 'user', status: 'complete' });
    const first = message('reply-1', { status: 'complete', parentId: 'user-1' });
    const second = message('reply-2', { status: 'complete', parentId: 'user-1' });
    let state = loaded({ messages: [question, second], versions: { 'reply-2': ['reply-1', 'reply-2'] } });
    state = conversationReducer(state, { type: 'history-cut', after: 'user-1', newVersionOf: second });
    state = events(state, {
      type: 'message-start',
      conversationId,
      message: message('reply-3', { parentId: 'user-1' }),
    });
    expect(state.versions['reply-3']).toEqual(['reply-1', 'reply-2', 'reply-3']);
    // A later reply of the same turn (after a tool result) is no version of it.
    state = events(state, {
      type: 'message-start',
      conversationId,
      message: message('reply-4', { parentId: 'tool-1' }),
    });
    expect(state.versions['reply-4']).toBeUndefined();

    let once = loaded({ messages: [question, first] });
    once = conversationReducer(once, { type: 'history-cut', after: 'user-1', newVersionOf: first });
    once = events(once, { type: 'message-start', conversationId, message: message('reply-5', { parentId: 'user-1' }) });
    expect(once.versions).toEqual({ 'reply-5': ['reply-1', 'reply-5'] });
  });

  it('leaves out a tool result of a version no longer shown', () => {
    const question = message('user-1', { role: 'user', status: 'complete' });
    const caller = message('reply-1', { status: 'complete', parentId: 'user-1' });
    let state = loaded({ messages: [question, caller] });
    state = conversationReducer(state, { type: 'history-cut', after: 'user-1', newVersionOf: caller });
    const stopped = message('tool-1', { role: 'tool', status: 'stopped', toolCallId: 'call_1', parentId: 'reply-1' });
    state = events(state, { type: 'tool-result', conversationId, message: stopped });
    expect(state.messages.map((each) => each.id)).toEqual(['user-1']);
    state = events(state, {
      type: 'message-start',
      conversationId,
      message: message('reply-2', { parentId: 'user-1' }),
    });
    const result = message('tool-2', { role: 'tool', status: 'complete', toolCallId: 'call_2', parentId: 'reply-2' });
    state = events(state, { type: 'tool-result', conversationId, message: result });
    expect(state.messages.map((each) => each.id)).toEqual(['user-1', 'reply-2', 'tool-2']);
  });

  it('adds an edited message as a new version when the stored one replaces it', () => {
    const original = message('user-1', { role: 'user', content: 'hi', status: 'complete' });
    const edited = { ...original, content: 'hello' };
    let state = loaded({ messages: [original] });
    state = conversationReducer(state, {
      type: 'history-cut',
      after: 'user-1',
      replacement: edited,
      newVersionOf: original,
    });
    state = conversationReducer(state, { type: 'send-done', localId: 'user-1', message: { ...edited, id: 'user-2' } });
    expect(state.messages.map((each) => each.id)).toEqual(['user-2']);
    expect(state.versions).toEqual({ 'user-2': ['user-1', 'user-2'] });
    expect(state.pendingVersion).toBeNull();
  });

  it('takes deleted messages off the screen', () => {
    const messages = ['user-1', 'reply-1', 'tool-1', 'reply-2'].map((id) => message(id, { status: 'complete' }));
    const state = conversationReducer(
      { ...loaded(), messages },
      { type: 'messages-removed', ids: ['reply-1', 'tool-1'] },
    );
    expect(state.messages.map((each) => each.id)).toEqual(['user-1', 'reply-2']);
  });
});
