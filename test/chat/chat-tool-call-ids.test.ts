// Tool calls are told apart by Switchyard, not by the provider's id: an upstream that names every call `call_1`
// (within one reply and again on every turn) must not make one call's approval or result stand for another's.

import { describe, expect, it } from 'vitest';
import { newChatMessage } from '../../shared/bridge/chat-message.js';
import type { ChatEvent, ChatMessage } from '../../shared/bridge/types.js';
import { deniedToolResult } from '../../main/chat/index.js';
import { waitFor } from '../support/wait-for.js';
import { useChatTestApp } from './chat-test-app.js';

const env = useChatTestApp();

function eventsOf(conversationId: string): ChatEvent[] {
  return env.events.filter((event) => event.conversationId === conversationId);
}

function approvals(conversationId: string) {
  return eventsOf(conversationId).flatMap((event) => (event.type === 'approval-required' ? [event.approval] : []));
}

/** Sends `text`, answers the turn's two approvals with `decisions` in order, and waits for the turn's end. */
async function turn(conversationId: string, text: string, decisions: ['once' | 'deny', 'once' | 'deny']) {
  const before = approvals(conversationId).length;
  const finishes = eventsOf(conversationId).filter((event) => event.type === 'turn-finish').length;
  await env.app.chat.send(conversationId, text);
  for (const [index, decision] of decisions.entries()) {
    const approval = await waitFor(() => approvals(conversationId)[before + index], { what: `approval ${index + 1}` });
    expect(env.app.chat.resolveApproval(conversationId, approval.toolCallId, decision)).toBe(true);
    // Deciding one call decides nothing else: a second answer for it is refused.
    expect(env.app.chat.resolveApproval(conversationId, approval.toolCallId, decision)).toBe(false);
  }
  await waitFor(() => eventsOf(conversationId).filter((event) => event.type === 'turn-finish').length > finishes, {
    what: 'the end of the turn',
  });
}

describe('tool calls whose provider ids repeat', () => {
  it('keeps each call its own approval, stored result and id in the request sent upstream', async () => {
    const conversation = await env.app.chat.createConversation({ model: 'fake/scripted-1' });
    await turn(conversation.id, 'twins alpha', ['once', 'deny']);
    await turn(conversation.id, 'twins beta', ['deny', 'once']);

    // Each approval named a different call.
    const asked = approvals(conversation.id).map((approval) => approval.toolCallId);
    expect(asked).toHaveLength(4);
    expect(new Set(asked).size).toBe(4);

    // Read back from the store: every call has its own id and its own result.
    const { messages } = await env.app.chat.getConversation(conversation.id);
    const calls = messages.flatMap((message) => message.toolCalls ?? []);
    expect(calls.map((call) => JSON.parse(call.function.arguments).message)).toEqual([
      'alpha-1',
      'alpha-2',
      'beta-1',
      'beta-2',
    ]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(4);
    const resultOf = (id: string) => messages.filter((message) => message.toolCallId === id);
    expect(calls.map((call) => resultOf(call.id).map((result) => [result.status, result.content]))).toEqual([
      [['complete', 'Echo: alpha-1']],
      [['denied', deniedToolResult]],
      [['denied', deniedToolResult]],
      [['complete', 'Echo: beta-2']],
    ]);

    // The last request upstream: ids unique, each tool message right after its call with that call's result.
    const sent = env.upstream.chatRequests().at(-1)?.body?.messages ?? [];
    const wireCalls = sent.flatMap((message) => (message.tool_calls ?? []) as { id: string }[]);
    expect(wireCalls).toHaveLength(4);
    expect(new Set(wireCalls.map((call) => call.id)).size).toBe(4);
    const toolMessages = sent.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.tool_call_id)).toEqual(wireCalls.map((call) => call.id));
    expect(toolMessages.map((message) => message.content)).toEqual([
      'Echo: alpha-1',
      deniedToolResult,
      deniedToolResult,
      'Echo: beta-2',
    ]);
  });

  it('deletes only the results of the reply deleted, in a conversation stored with one id in two replies', async () => {
    const conversation = await env.app.chat.createConversation({ model: 'fake/scripted-1' });
    let at = 0;
    const stored = (fields: Partial<ChatMessage> & Pick<ChatMessage, 'role'>) => {
      at += 1;
      return newChatMessage({
        id: `legacy-${at}`,
        conversationId: conversation.id,
        status: 'complete',
        createdAt: at,
        parentId: at === 1 ? null : `legacy-${at - 1}`, // one line, as the migration to versions stores it
        ...fields,
      });
    };
    const call = { id: 'call_1', type: 'function' as const, function: { name: 'everything__echo', arguments: '{}' } };
    const history = [
      stored({ role: 'user', content: 'one' }),
      stored({ role: 'assistant', toolCalls: [call] }),
      stored({ role: 'tool', toolCallId: 'call_1', content: 'Echo: one' }),
      stored({ role: 'assistant', content: 'Done.' }),
      stored({ role: 'user', content: 'two' }),
      stored({ role: 'assistant', toolCalls: [call] }),
      stored({ role: 'tool', toolCallId: 'call_1', content: 'Echo: two' }),
    ];
    for (const message of history) await env.app.store.chat.insertMessage(message);

    expect(await env.app.chat.deleteMessage(conversation.id, 'legacy-6')).toEqual(['legacy-6', 'legacy-7']);
    const { messages } = await env.app.chat.getConversation(conversation.id);
    expect(messages.map((message) => message.content)).toEqual(['one', null, 'Echo: one', 'Done.', 'two']);
  });
});
