// The chat's tool loop, headless, through the real app: the gateway pipeline over HTTP, server-everything over
// stdio, and a scripted upstream that calls its `echo` tool.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../shared/bridge/types.js';
import { chatKeyName, deniedToolResult } from '../../main/chat/index.js';
import { echoFunction } from './scripted-upstream.js';
import { waitFor } from '../support/wait-for.js';
import { useChatTestApp } from './chat-test-app.js';

const env = useChatTestApp({ maxSteps: 3 });

function eventsOf(conversationId: string): ChatEvent[] {
  return env.events.filter((event) => event.conversationId === conversationId);
}

function turnFinish(conversationId: string, after = 0) {
  return waitFor(
    () =>
      eventsOf(conversationId)
        .slice(after)
        .find((event): event is Extract<ChatEvent, { type: 'turn-finish' }> => event.type === 'turn-finish'),
    { what: 'the end of the turn' },
  );
}

function approvalRequired(conversationId: string) {
  return waitFor(
    () =>
      eventsOf(conversationId).find(
        (event): event is Extract<ChatEvent, { type: 'approval-required' }> => event.type === 'approval-required',
      ),
    { what: 'an approval request' },
  );
}

function newConversation() {
  return env.app.chat.createConversation({ model: 'fake/scripted-1' });
}

describe('the chat tool loop', () => {
  it('streams a plain answer, persists it with usage, and logs the request as app "Switchyard Chat"', async () => {
    const conversation = await newConversation();
    const sent = await env.app.chat.send(conversation.id, 'Hi there');
    expect(sent).toMatchObject({ role: 'user', content: 'Hi there', status: 'complete' });
    expect((await turnFinish(conversation.id)).reason).toBe('done');

    const deltas = eventsOf(conversation.id).filter((event) => event.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(1);
    const detail = await env.app.chat.getConversation(conversation.id);
    expect(detail.conversation.title).toBe('Hi there');
    expect(detail.running).toBe(false);
    const reply = detail.messages[1];
    expect(reply).toMatchObject({ role: 'assistant', status: 'complete', model: 'fake/scripted-1' });
    expect(reply?.content).toContain('Hello from the **scripted** model.');
    expect(reply?.usage?.prompt_tokens).toBe(20);
    expect(typeof reply?.cost).toBe('number');

    // The chat used its own gateway key and the gateway's usage log.
    const chatKey = env.app.keys.list().find((key) => key.name === chatKeyName);
    expect(chatKey).toBeDefined();
    // It sends chat requests only: no right to list or delete the user's keys.
    expect(chatKey?.management).toBe(false);
    await env.app.usage.flush();
    const rows = await env.app.store.listUsage();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.app_title === 'Switchyard Chat')).toBe(true);
  });

  it('asks before running a tool, runs it once approved, and sends the result back as a tool message', async () => {
    const conversation = await newConversation();
    const before = env.upstream.chatRequests().length;
    await env.app.chat.send(conversation.id, 'please echo banana');
    const { approval } = await approvalRequired(conversation.id);
    expect(approval).toMatchObject({ server: 'everything', tool: 'echo', functionName: echoFunction });
    expect(JSON.parse(approval.arguments)).toEqual({ message: 'banana' });
    expect((await env.app.chat.getConversation(conversation.id)).pendingApprovals).toHaveLength(1);

    expect(env.app.chat.resolveApproval(conversation.id, approval.toolCallId, 'once')).toBe(true);
    expect((await turnFinish(conversation.id)).reason).toBe('done');

    const requests = env.upstream.chatRequests().slice(before);
    expect(requests).toHaveLength(2);
    expect(requests[0]?.body?.tools?.map((tool) => tool.function.name)).toContain(echoFunction);
    const followUp = requests[1]?.body?.messages ?? [];
    expect(followUp.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: approval.toolCallId, type: 'function', function: { name: echoFunction } }],
    });
    expect(followUp.at(-1)).toEqual({ role: 'tool', tool_call_id: approval.toolCallId, content: 'Echo: banana' });

    const messages = (await env.app.chat.getConversation(conversation.id)).messages;
    expect(messages.map((message) => [message.role, message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
      ['tool', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(messages[1]?.toolCalls?.[0]?.mcp).toEqual({ server: 'everything', tool: 'echo' });
    expect(messages[2]?.content).toBe('Echo: banana');
    expect(messages[3]?.content).toBe('The tool said: Echo: banana');
  });

  it('tells the model when the user denies a call, and runs nothing', async () => {
    const conversation = await newConversation();
    const before = env.upstream.chatRequests().length;
    await env.app.chat.send(conversation.id, 'please echo secret');
    const { approval } = await approvalRequired(conversation.id);
    env.app.chat.resolveApproval(conversation.id, approval.toolCallId, 'deny');
    expect((await turnFinish(conversation.id)).reason).toBe('done');

    const followUp = env.upstream.chatRequests()[before + 1]?.body?.messages ?? [];
    expect(followUp.at(-1)).toEqual({ role: 'tool', tool_call_id: approval.toolCallId, content: deniedToolResult });
    const tool = (await env.app.chat.getConversation(conversation.id)).messages.find(
      (message) => message.role === 'tool',
    );
    expect(tool).toMatchObject({ status: 'denied', content: deniedToolResult });
  });

  it('"always allow" adds the tool to autoApprove in mcp_settings.json, and the next call runs unasked', async () => {
    const first = await newConversation();
    await env.app.chat.send(first.id, 'please echo apple');
    const { approval } = await approvalRequired(first.id);
    env.app.chat.resolveApproval(first.id, approval.toolCallId, 'always');
    expect((await turnFinish(first.id)).reason).toBe('done');
    const settings = JSON.parse(fs.readFileSync(path.join(env.dataDir, 'mcp_settings.json'), 'utf8')) as {
      mcpServers: { everything: { autoApprove?: string[]; args: string[] } };
    };
    expect(settings.mcpServers.everything.autoApprove).toEqual(['echo']);
    expect(settings.mcpServers.everything.args.at(-1)).toBe('stdio'); // the rest of the entry is untouched

    const second = await newConversation();
    await env.app.chat.send(second.id, 'please echo pear');
    expect((await turnFinish(second.id)).reason).toBe('done');
    expect(eventsOf(second.id).some((event) => event.type === 'approval-required')).toBe(false);
    const toolCall = eventsOf(second.id).find((event) => event.type === 'tool-call');
    expect(toolCall).toMatchObject({ autoApproved: true });
    expect((await env.app.chat.getConversation(second.id)).messages.at(-1)?.content).toBe('The tool said: Echo: pear');
  });

  it('stops at the step cap when the model keeps calling tools', async () => {
    const conversation = await newConversation();
    const before = env.upstream.chatRequests().length;
    await env.app.chat.send(conversation.id, 'loop forever'); // echo is auto-approved by now
    expect((await turnFinish(conversation.id)).reason).toBe('step-limit');
    expect(env.upstream.chatRequests().length - before).toBe(3);
    const error = eventsOf(conversation.id).find((event) => event.type === 'error');
    expect(error).toMatchObject({ message: expect.stringContaining('step limit') });
    // Every call of the last reply has its result, so the conversation can go on.
    const messages = (await env.app.chat.getConversation(conversation.id)).messages;
    expect(messages.filter((message) => message.role === 'tool')).toHaveLength(3);
  });

  it('stop aborts the upstream stream and keeps what had arrived', async () => {
    const conversation = await newConversation();
    const abortedBefore = env.upstream.abortedCount();
    await env.app.chat.send(conversation.id, 'a slow answer please');
    await waitFor(() => eventsOf(conversation.id).filter((event) => event.type === 'text-delta').length >= 3, {
      what: 'deltas',
    });
    expect(await env.app.chat.stop(conversation.id)).toBe(true);
    expect((await turnFinish(conversation.id)).reason).toBe('stopped');
    await waitFor(() => env.upstream.abortedCount() > abortedBefore, { what: 'the upstream request to be closed' });
    const reply = (await env.app.chat.getConversation(conversation.id)).messages[1];
    expect(reply?.status).toBe('stopped');
    expect(reply?.content).toMatch(/^word0 /);
    expect(reply?.content?.length).toBeLessThan(400 * 6);
    expect(await env.app.chat.stop(conversation.id)).toBe(false);
  });

  it('stop while a call waits for approval answers the call as stopped and ends the turn', async () => {
    const conversation = await newConversation();
    // echo was always-allowed above: ask for it again.
    await env.app.mcp.setToolAutoApprove('everything', 'echo', false);
    await env.app.chat.send(conversation.id, 'please echo later');
    const { approval } = await approvalRequired(conversation.id);
    await env.app.chat.stop(conversation.id);
    expect((await turnFinish(conversation.id)).reason).toBe('stopped');
    expect(env.app.chat.resolveApproval(conversation.id, approval.toolCallId, 'once')).toBe(false);
    const tool = (await env.app.chat.getConversation(conversation.id)).messages.find(
      (message) => message.role === 'tool',
    );
    expect(tool).toMatchObject({ toolCallId: approval.toolCallId, status: 'stopped' });
  });

  it('lists, searches, renames and deletes conversations', async () => {
    const conversation = await newConversation();
    await env.app.chat.send(conversation.id, 'a question about zebras');
    await turnFinish(conversation.id);
    expect((await env.app.chat.listConversations('ZEBRA')).map((found) => found.id)).toEqual([conversation.id]);
    expect((await env.app.chat.listConversations('const answer')).map((found) => found.id)).toContain(conversation.id);
    expect(await env.app.chat.listConversations('100%_')).toEqual([]);
    await env.app.chat.renameConversation(conversation.id, '  Zoo notes ');
    expect((await env.app.chat.listConversations('zoo'))[0]?.title).toBe('Zoo notes');
    expect(await env.app.chat.deleteConversation(conversation.id)).toBe(true);
    await expect(env.app.chat.getConversation(conversation.id)).rejects.toThrow(/no conversation/);
    expect(await env.app.chat.listConversations('zebra')).toEqual([]);
  });
});
