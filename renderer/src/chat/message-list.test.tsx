// Tool cards are told apart by their place in the reply: a provider may give two calls (of one reply, or of
// different turns) the same id, and each card must keep its own result and approval.

import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newChatMessage } from '../../../shared/bridge/chat-message.js';
import type { ChatMessage, ChatToolCall, PendingApproval } from '../../../shared/bridge/types.js';
import { MessageList } from './message-list.js';

afterEach(cleanup);

let counter = 0;
function message(fields: Partial<ChatMessage> & Pick<ChatMessage, 'role'>): ChatMessage {
  counter += 1;
  return newChatMessage({ id: `m${counter}`, conversationId: 'c', status: 'complete', createdAt: counter, ...fields });
}

function call(word: string): ChatToolCall {
  return { id: 'call_1', type: 'function', function: { name: 'echo', arguments: JSON.stringify({ word }) } };
}

const actions = { onRegenerate: vi.fn(), onEdit: vi.fn(), onDelete: vi.fn() };

function cardStates(): string[] {
  return screen.getAllByLabelText('Tool call echo').map((card) => card.querySelector('.tool-state')?.textContent ?? '');
}

describe('MessageList tool cards', () => {
  it('keeps the result of each of two calls with the same provider id', () => {
    const messages = [
      message({ role: 'user', content: 'go' }),
      message({ role: 'assistant', toolCalls: [call('a'), call('b')] }),
      message({ role: 'tool', toolCallId: 'call_1', content: 'Echo: a', status: 'complete' }),
      message({ role: 'tool', toolCallId: 'call_1', content: 'denied', status: 'denied' }),
    ];
    render(
      <MessageList
        messages={messages}
        approvals={[]}
        running={false}
        models={[]}
        actions={actions}
        onDecide={vi.fn()}
      />,
    );
    expect(cardStates()).toEqual(['done', 'denied']);
    const [first] = screen.getAllByLabelText('Tool call echo');
    expect(within(first!).queryByText('denied')).toBeNull();
  });

  it("shows an approval only on its own reply's card, not on an earlier call with the same id", () => {
    const earlier = message({ role: 'assistant', toolCalls: [call('a')] });
    const later = message({ role: 'assistant', toolCalls: [call('b')] });
    const messages = [
      message({ role: 'user', content: 'one' }),
      earlier,
      message({ role: 'tool', toolCallId: 'call_1', content: 'Echo: a', status: 'complete' }),
      message({ role: 'user', content: 'two' }),
      later,
    ];
    const approval: PendingApproval = {
      conversationId: 'c',
      messageId: later.id,
      toolCallId: 'call_1',
      functionName: 'echo',
      server: 's',
      tool: 'echo',
      arguments: '{"word":"b"}',
    };
    render(
      <MessageList
        messages={messages}
        approvals={[approval]}
        running
        models={[]}
        actions={actions}
        onDecide={vi.fn()}
      />,
    );
    expect(cardStates()).toEqual(['done', 'awaiting approval']);
  });
});
