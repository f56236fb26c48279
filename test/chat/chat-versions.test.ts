// Versions of a conversation through the bridge, as the UI uses them: a regenerated reply or an edited message is
// a new version beside the old one, each with its own continuation; the shown path is what the next request sends
// (asserted on what the scripted upstream receives), and stopping, pending approvals and deletes keep the tree
// whole.

import { describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { useChatBridge } from './chat-test-app.js';

const chat = useChatBridge();
const { call, failure, eventsOf, andTurn, conversationWith } = chat;

const shown = async (conversationId: string) => call('chat:get-conversation', { id: conversationId });
const shownIds = async (conversationId: string) => (await shown(conversationId)).messages.map((message) => message.id);
/** The roles and texts of the last request's messages. */
const lastHistory = () =>
  chat.env.upstream
    .chatRequests()
    .at(-1)
    ?.body?.messages?.map((message) => [message.role, message.content]);

describe('versions', () => {
  it('shows each version with its own continuation and sends the model exactly the shown path', async () => {
    const conversation = await conversationWith('first question', 'second question');
    const [q1, r1, q2, r2] = await shownIds(conversation.id);

    await andTurn(conversation.id, () => call('chat:regenerate', { conversationId: conversation.id, messageId: r1! }));
    const [, r1b] = await shownIds(conversation.id);
    await andTurn(conversation.id, () =>
      call('chat:send', { conversationId: conversation.id, text: 'third question' }),
    );
    const third = await shown(conversation.id);
    expect(third.messages.map((message) => message.id).slice(0, 2)).toEqual([q1, r1b]);
    expect(third.versions).toEqual({ [r1b!]: [r1, r1b] });
    const reply = third.messages[1]!.content;
    expect(lastHistory()).toEqual([
      ['user', 'first question'],
      ['assistant', reply],
      ['user', 'third question'],
    ]);

    const first = await call('chat:show-version', { conversationId: conversation.id, messageId: r1! });
    expect(first.messages.map((message) => message.id)).toEqual([q1, r1, q2, r2]);
    expect(first.versions).toEqual({ [r1!]: [r1, r1b] });
    expect(await shownIds(conversation.id)).toEqual([q1, r1, q2, r2]); // stored: a reload shows the same
    await andTurn(conversation.id, () => call('chat:send', { conversationId: conversation.id, text: 'fourth' }));
    expect(lastHistory()?.map(([role, content]) => [role, role === 'user' ? content : 'reply'])).toEqual([
      ['user', 'first question'],
      ['assistant', 'reply'],
      ['user', 'second question'],
      ['assistant', 'reply'],
      ['user', 'fourth'],
    ]);

    // Back to the second version: it kept its own continuation.
    const second = await call('chat:show-version', { conversationId: conversation.id, messageId: r1b! });
    expect(second.messages.map((message) => message.content)).toEqual([
      'first question',
      reply,
      'third question',
      expect.stringContaining('scripted'),
    ]);
    expect(await failure('chat:show-version', { conversationId: conversation.id, messageId: 'unknown' })).toMatchObject(
      { code: 'not-found' },
    );
  });

  it('edits the first message into a second root, each keeping its answers', async () => {
    const conversation = await conversationWith('colour of the sky?');
    const [question, answer] = await shownIds(conversation.id);
    const { message } = await andTurn(conversation.id, () =>
      call('chat:edit-message', { conversationId: conversation.id, messageId: question!, text: 'colour of grass?' }),
    );
    expect(lastHistory()).toEqual([['user', 'colour of grass?']]);
    const shownNow = await shown(conversation.id);
    expect(shownNow.versions).toEqual({ [message.id]: [question, message.id] });
    // A version out of sight is shown first, then changed.
    expect(
      await failure('chat:edit-message', { conversationId: conversation.id, messageId: question!, text: 'x' }),
    ).toMatchObject({ code: 'invalid-request', message: 'This version is not shown: show it first.' });
    await call('chat:show-version', { conversationId: conversation.id, messageId: question! });
    expect(await shownIds(conversation.id)).toEqual([question, answer]);
  });

  it('deletes the shown version with what followed it, and shows the version chosen before it', async () => {
    const conversation = await conversationWith('first question', 'second question');
    const [q1, r1, q2, r2] = await shownIds(conversation.id);
    await andTurn(conversation.id, () => call('chat:regenerate', { conversationId: conversation.id, messageId: r2! }));
    const [, , , r2b] = await shownIds(conversation.id);
    expect(await call('chat:delete-message', { conversationId: conversation.id, messageId: r2b! })).toEqual({
      deleted: [r2b],
    });
    const after = await shown(conversation.id);
    expect(after.messages.map((message) => message.id)).toEqual([q1, r1, q2, r2]);
    expect(after.versions).toEqual({});
  });

  it('regenerates while a tool call waits for approval: that call is stopped and kept with its version', async () => {
    const { conversation } = await call('chat:create-conversation', { model: 'fake/scripted-1' });
    const approvals = () => eventsOf(conversation.id, 'approval-required');
    await call('chat:send', { conversationId: conversation.id, text: 'please echo plum' });
    await waitFor(() => approvals().length === 1, { what: 'the approval request' });
    const [question, caller] = await shownIds(conversation.id);

    await andTurn(
      conversation.id,
      async () => {
        await call('chat:regenerate', { conversationId: conversation.id, messageId: caller! });
        await waitFor(() => approvals().length === 2, { what: 'the new version’s approval request' });
        expect(lastHistory()).toEqual([['user', 'please echo plum']]);
        await call('chat:resolve-approval', {
          conversationId: conversation.id,
          toolCallId: approvals()[1]!.approval.toolCallId,
          decision: 'deny',
        });
      },
      2,
    );
    const now = await shown(conversation.id);
    const newCaller = now.messages[1]!;
    expect(now.messages.map((message) => [message.role, message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
      ['tool', 'denied'],
      ['assistant', 'complete'],
    ]);
    expect(now.versions).toEqual({ [newCaller.id]: [caller, newCaller.id] });

    const old = await call('chat:show-version', { conversationId: conversation.id, messageId: caller! });
    expect(old.messages.map((message) => [message.id, message.role, message.status])).toEqual([
      [question, 'user', 'complete'],
      [caller, 'assistant', 'complete'],
      [expect.any(String), 'tool', 'stopped'],
    ]);
    expect(old.messages[2]!.toolCallId).toBe(old.messages[1]!.toolCalls![0]!.id);
  });

  it('edits the question while its reply’s tool call waits for approval: the old version keeps the call, stopped', async () => {
    const { conversation } = await call('chat:create-conversation', { model: 'fake/scripted-1' });
    const approvals = () => eventsOf(conversation.id, 'approval-required');
    await call('chat:send', { conversationId: conversation.id, text: 'please echo pear' });
    await waitFor(() => approvals().length === 1, { what: 'the approval request' });
    const [question] = await shownIds(conversation.id);

    const { message } = await andTurn(
      conversation.id,
      () => call('chat:edit-message', { conversationId: conversation.id, messageId: question!, text: 'just say hi' }),
      2,
    );
    expect(lastHistory()).toEqual([['user', 'just say hi']]);
    expect((await shown(conversation.id)).versions).toEqual({ [message.id]: [question, message.id] });
    const old = await call('chat:show-version', { conversationId: conversation.id, messageId: question! });
    expect(old.messages.map((each) => [each.role, each.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
      ['tool', 'stopped'],
    ]);
  });

  it('stops a regenerated reply: it stays as a stopped version beside the earlier one', async () => {
    const conversation = await conversationWith('hello');
    const [question, reply] = await shownIds(conversation.id);
    const deltasExcept = (...ids: (string | undefined)[]) =>
      eventsOf(conversation.id, 'text-delta').filter((event) => !ids.includes(event.messageId));
    await andTurn(conversation.id, async () => {
      await call('chat:edit-message', { conversationId: conversation.id, messageId: question!, text: 'slow please' });
      await waitFor(() => deltasExcept(reply).length > 0, { what: 'the first words' });
      await call('chat:stop', { conversationId: conversation.id });
    });
    const [slowQuestion, slowReply] = await shownIds(conversation.id);
    const deltas = () => deltasExcept(reply, slowReply);

    await andTurn(conversation.id, async () => {
      await call('chat:regenerate', { conversationId: conversation.id, messageId: slowReply! });
      await waitFor(() => deltas().length > 0, { what: 'the first words of the new version' });
      await call('chat:stop', { conversationId: conversation.id });
    });
    const now = await shown(conversation.id);
    const regenerated = now.messages[1]!;
    expect(regenerated).toMatchObject({ role: 'assistant', status: 'stopped', parentId: slowQuestion });
    expect(now.versions).toEqual({
      [slowQuestion!]: [question, slowQuestion],
      [regenerated.id]: [slowReply, regenerated.id],
    });

    await andTurn(conversation.id, () => call('chat:send', { conversationId: conversation.id, text: 'go on' }));
    expect(lastHistory()).toEqual([
      ['user', 'slow please'],
      ['assistant', regenerated.content],
      ['user', 'go on'],
    ]);
    const first = await call('chat:show-version', { conversationId: conversation.id, messageId: question! });
    expect(first.messages.map((message) => message.id)).toEqual([question, reply]);
  });
});
