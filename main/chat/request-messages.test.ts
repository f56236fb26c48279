import { describe, expect, it } from 'vitest';
import { newChatMessage } from '../../shared/bridge/chat-message.js';
import type { ChatMessage, ChatToolCall, Conversation } from '../../shared/bridge/types.js';
import { toRequestMessages, uniqueCallIds } from './request-messages.js';

const conversation: Conversation = {
  id: 'c',
  title: '',
  model: 'fake/model',
  systemPrompt: '',
  temperature: null,
  createdAt: 0,
  updatedAt: 0,
};

let counter = 0;
function message(fields: Partial<ChatMessage> & Pick<ChatMessage, 'role'>): ChatMessage {
  counter += 1;
  return newChatMessage({ id: `m${counter}`, conversationId: 'c', status: 'complete', createdAt: counter, ...fields });
}

function call(id: string, word: string): ChatToolCall {
  return { id, type: 'function', function: { name: 'echo', arguments: JSON.stringify({ word }) } };
}

describe('toRequestMessages', () => {
  it('gives repeated call ids of a stored conversation unique ones, each result after its own call', () => {
    // Stored before ids were made unique: `call_1` in two replies, and twice in the second one.
    const history = [
      message({ role: 'user', content: 'one' }),
      message({ role: 'assistant', toolCalls: [call('call_1', 'a')] }),
      message({ role: 'tool', toolCallId: 'call_1', content: 'result a' }),
      message({ role: 'assistant', content: 'done' }),
      message({ role: 'user', content: 'two' }),
      message({ role: 'assistant', toolCalls: [call('call_1', 'b'), call('call_1', 'c')] }),
      message({ role: 'tool', toolCallId: 'call_1', content: 'result b' }),
      message({ role: 'tool', toolCallId: 'call_1', content: 'result c' }),
    ];
    const sent = toRequestMessages(conversation, history);
    const ids = sent.flatMap((wire) => (wire.tool_calls ?? []).map((wireCall) => wireCall.id));
    expect(ids).toEqual(['call_1', 'call_1_2', 'call_1_3']);
    expect(sent.filter((wire) => wire.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'result a' },
      { role: 'tool', tool_call_id: 'call_1_2', content: 'result b' },
      { role: 'tool', tool_call_id: 'call_1_3', content: 'result c' },
    ]);
  });
});

describe('uniqueCallIds', () => {
  it('keeps an unused provider id and renames one the conversation or a sibling already has', () => {
    const history = [message({ role: 'assistant', toolCalls: [call('call_1', 'a')] })];
    const calls = uniqueCallIds([call('call_1', 'b'), call('call_1', 'c'), call('call_9', 'd')], history);
    expect(calls.map((unique) => unique.id)).toEqual(['call_1_2', 'call_1_3', 'call_9']);
  });
});
