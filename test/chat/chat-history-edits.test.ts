// Changing a conversation's history through the bridge, as the UI does: regenerate a reply (with another model),
// edit a message of the user's and answer it again — each a new version beside the old one —, delete a message
// with what follows it — against the real app, its gateway and the scripted upstream, checking what is stored,
// what is shown and what the model is sent next.

import { describe, expect, it } from 'vitest';
import { useChatBridge } from './chat-test-app.js';

const chat = useChatBridge();
const { call, failure, andTurn, conversationWith } = chat;

const messagesOf = async (conversationId: string) => (await chat.env.app.chat.getConversation(conversationId)).messages;
const lastRequest = () => chat.env.upstream.chatRequests().at(-1)?.body;

describe('regenerate', () => {
  it('answers again with another model, which becomes the conversation’s, beside the old reply', async () => {
    const conversation = await conversationWith('first question', 'second question');
    const [, firstReply, , secondReply] = await messagesOf(conversation.id);

    const { conversation: changed } = await andTurn(conversation.id, () =>
      call('chat:regenerate', {
        conversationId: conversation.id,
        messageId: firstReply!.id,
        model: 'fake/scripted-vision',
      }),
    );
    expect(changed.model).toBe('fake/scripted-vision');
    const messages = await messagesOf(conversation.id);
    expect(messages.map((message) => [message.role, message.model, message.status])).toEqual([
      ['user', null, 'complete'],
      ['assistant', 'fake/scripted-vision', 'complete'],
    ]);
    expect(messages.map((message) => message.id)).not.toContain(firstReply!.id);
    expect(messages.map((message) => message.id)).not.toContain(secondReply!.id);
    const detail = await call('chat:get-conversation', { id: conversation.id });
    expect(detail.versions).toEqual({ [messages[1]!.id]: [firstReply!.id, messages[1]!.id] });
    expect(await chat.env.app.chat.listConversations('second question')).toContainEqual(
      expect.objectContaining({ id: conversation.id }),
    );
    expect(lastRequest()?.model).toBe('scripted-vision');
    expect(lastRequest()?.messages).toEqual([{ role: 'user', content: 'first question' }]);
  });

  it('keeps the model when none is given, and regenerates only replies', async () => {
    const conversation = await conversationWith('hello');
    const [question, reply] = await messagesOf(conversation.id);
    await andTurn(conversation.id, () =>
      call('chat:regenerate', { conversationId: conversation.id, messageId: reply!.id }),
    );
    expect((await messagesOf(conversation.id)).map((message) => message.model)).toEqual([null, 'fake/scripted-1']);
    expect(await failure('chat:regenerate', { conversationId: conversation.id, messageId: question!.id })).toEqual({
      code: 'invalid-request',
      message: 'Only a reply can be regenerated.',
    });
  });
});

describe('edit a message', () => {
  it('writes a new version with its text, shows it without what followed, and sends the model that', async () => {
    const conversation = await conversationWith('what is 2+2', 'and 3+3');
    const [first] = await messagesOf(conversation.id);
    const { message } = await andTurn(conversation.id, () =>
      call('chat:edit-message', { conversationId: conversation.id, messageId: first!.id, text: 'what is 2+3' }),
    );
    expect(message).toMatchObject({ role: 'user', content: 'what is 2+3', parentId: null });
    expect(message.id).not.toBe(first!.id);
    expect((await call('chat:get-conversation', { id: conversation.id })).versions).toEqual({
      [message.id]: [first!.id, message.id],
    });
    expect((await messagesOf(conversation.id)).map((stored) => [stored.role, stored.content])).toEqual([
      ['user', 'what is 2+3'],
      ['assistant', expect.stringContaining('scripted')],
    ]);
    expect(lastRequest()?.messages).toEqual([{ role: 'user', content: 'what is 2+3' }]);
    expect((await chat.env.app.chat.listConversations('2+3')).map((found) => found.id)).toContain(conversation.id);
    expect((await chat.env.app.chat.listConversations('2+2')).map((found) => found.id)).toContain(conversation.id);
  });

  it('refuses to edit a reply, or to leave a message empty', async () => {
    const conversation = await conversationWith('hi');
    const [question, reply] = await messagesOf(conversation.id);
    expect(
      await failure('chat:edit-message', { conversationId: conversation.id, messageId: reply!.id, text: 'x' }),
    ).toMatchObject({ code: 'invalid-request', message: 'Only your own messages can be edited.' });
    expect(
      await failure('chat:edit-message', { conversationId: conversation.id, messageId: question!.id, text: '  ' }),
    ).toMatchObject({ code: 'invalid-request', message: expect.stringContaining('delete it instead') });
    expect(
      await failure('chat:edit-message', { conversationId: conversation.id, messageId: question!.id }),
    ).toMatchObject({ code: 'invalid-request' });
  });
});

describe('delete a message', () => {
  it('deletes a message with everything after it (a reply’s tool results among them)', async () => {
    const { conversation } = await call('chat:create-conversation', { model: 'fake/scripted-1' });
    await andTurn(conversation.id, async () => {
      await call('chat:send', { conversationId: conversation.id, text: 'please echo plum' });
      await chat.approveOnce(conversation.id);
    });
    const [question, caller, result, answer] = await messagesOf(conversation.id);
    expect([caller?.role, result?.role, answer?.role]).toEqual(['assistant', 'tool', 'assistant']);

    expect(
      await failure('chat:delete-message', { conversationId: conversation.id, messageId: result!.id }),
    ).toMatchObject({ code: 'invalid-request', message: expect.stringContaining('belongs to the reply') });
    expect(await call('chat:delete-message', { conversationId: conversation.id, messageId: caller!.id })).toEqual({
      deleted: [caller!.id, result!.id, answer!.id],
    });
    expect((await messagesOf(conversation.id)).map((message) => message.id)).toEqual([question!.id]);
    expect(await call('chat:delete-message', { conversationId: conversation.id, messageId: question!.id })).toEqual({
      deleted: [question!.id],
    });
    expect(await failure('chat:delete-message', { conversationId: conversation.id, messageId: 'gone' })).toEqual({
      code: 'not-found',
      message: 'There is no message "gone" in this conversation.',
    });
  });
});

it('refuses every change of the history while the conversation is answering', async () => {
  const conversation = await conversationWith('hi');
  const [question, reply] = await messagesOf(conversation.id);
  await call('chat:send', { conversationId: conversation.id, text: 'a slow answer please' });
  const busy = { code: 'conflict', message: expect.stringContaining('still answering') };
  expect(await failure('chat:regenerate', { conversationId: conversation.id, messageId: reply!.id })).toEqual(busy);
  expect(
    await failure('chat:edit-message', { conversationId: conversation.id, messageId: question!.id, text: 'x' }),
  ).toEqual(busy);
  expect(await failure('chat:delete-message', { conversationId: conversation.id, messageId: reply!.id })).toEqual(busy);
  await call('chat:stop', { conversationId: conversation.id });
  expect(await messagesOf(conversation.id)).toHaveLength(4);
});
