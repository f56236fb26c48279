// The chat's use of a server's prompts and resources, through the bridge as the UI calls it, against the real app
// and server-everything: a prompt's arguments filled in come back as its messages; a resource attached to a message
// is read by main, stored with the message, and reaches the model as text (a line naming it, then its text).

import { describe, expect, it } from 'vitest';
import { resourceOfPart } from '../../shared/bridge/chat-message.js';
import { waitFor } from '../support/wait-for.js';
import { useChatBridge } from './chat-test-app.js';

const chat = useChatBridge();
const { call, failure } = chat;

describe('prompts through the bridge', () => {
  it('lists a server’s prompts with their arguments', async () => {
    const { prompts } = await call('mcp:list-prompts', { name: 'everything' });
    expect(prompts.find((prompt) => prompt.name === 'args-prompt')).toEqual({
      name: 'args-prompt',
      title: 'Arguments Prompt',
      description: 'A prompt with two arguments, one required and one optional',
      arguments: [
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', required: false }, // its description is lost in the server's own schema (optional())
      ],
    });
  });

  it('answers a prompt’s messages with its arguments filled in, embedded resources as text', async () => {
    const filled = await call('mcp:get-prompt', {
      name: 'everything',
      prompt: 'args-prompt',
      arguments: { city: 'Lyon', state: 'Rhône' },
    });
    expect(filled.messages).toEqual([
      { role: 'user', content: { type: 'text', text: "What's weather in Lyon, Rhône?" } },
    ]);

    const embedded = await call('mcp:get-prompt', {
      name: 'everything',
      prompt: 'resource-prompt',
      arguments: { resourceType: 'Text', resourceId: '2' },
    });
    expect(embedded.messages[1]?.content).toMatchObject({
      type: 'resource',
      uri: expect.stringContaining('2'),
      text: expect.stringContaining('Resource 2'),
    });
  });

  it('refuses a missing server, a failing prompt and too many arguments in the bridge’s error shape', async () => {
    expect(await failure('mcp:get-prompt', { name: 'nope', prompt: 'args-prompt' })).toMatchObject({
      code: 'not-found',
      message: 'There is no MCP server "nope".',
    });
    expect(await failure('mcp:get-prompt', { name: 'everything', prompt: 'no-such-prompt' })).toMatchObject({
      code: 'unavailable',
    });
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`a${index}`, 'x']));
    expect(await failure('mcp:get-prompt', { name: 'everything', prompt: 'p', arguments: many })).toMatchObject({
      code: 'invalid-request',
    });
  });
});

describe('a resource attached to a message', () => {
  it('is read by main, kept with the message, and sent to the model as text', async () => {
    const { resources } = await call('mcp:list-resources', { name: 'everything' });
    const document = resources.find((resource) => resource.mimeType === 'text/markdown')!;
    const { contents } = await call('mcp:read-resource', { name: 'everything', uri: document.uri });
    const documentText = 'text' in contents[0]! ? contents[0].text : '';

    const { conversation } = await call('chat:create-conversation', { model: 'fake/scripted-1' });
    const before = chat.env.upstream.chatRequests().length;
    const { message } = await call('chat:send', {
      conversationId: conversation.id,
      text: 'Summarise this',
      resources: [{ server: 'everything', uri: document.uri }],
    });
    expect(Array.isArray(message.content)).toBe(true);
    const parts = Array.isArray(message.content) ? message.content : [];
    expect(parts[0]).toEqual({ type: 'text', text: 'Summarise this' });
    expect(resourceOfPart(parts[1]!)).toEqual({ server: 'everything', uri: document.uri, mimeType: 'text/markdown' });
    await waitFor(async () => !(await chat.env.app.chat.getConversation(conversation.id)).running, {
      what: 'the end of the turn',
    });

    const sent = chat.env.upstream.chatRequests().slice(before)[0]?.body?.messages?.at(-1);
    expect(sent).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Summarise this' },
        { type: 'text', text: `Attached resource ${document.uri} (text/markdown):\n\n${documentText}` },
      ],
    });

    // Editing the message changes its text and keeps the resource.
    const { message: edited } = await call('chat:edit-message', {
      conversationId: conversation.id,
      messageId: message.id,
      text: 'Summarise it in one line',
    });
    const editedParts = Array.isArray(edited.content) ? edited.content : [];
    expect(editedParts.map((part) => resourceOfPart(part)?.uri ?? (part.type === 'text' ? part.text : ''))).toEqual([
      'Summarise it in one line',
      document.uri,
    ]);
    await waitFor(async () => !(await chat.env.app.chat.getConversation(conversation.id)).running, {
      what: 'the end of the turn',
    });
  });

  it('takes a resource alone, and says why one cannot be attached', async () => {
    const { conversation } = await call('chat:create-conversation', { model: 'fake/scripted-1' });
    expect(await failure('chat:send', { conversationId: conversation.id, text: ' ' })).toMatchObject({
      code: 'invalid-request',
      message: expect.stringContaining('a message needs text, an image, a file or a resource'),
    });
    expect(
      await failure('chat:send', {
        conversationId: conversation.id,
        text: '',
        resources: [{ server: 'everything', uri: 'demo://resource/no-such' }],
      }),
    ).toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('Could not read demo://resource/no-such'),
    });
    expect((await chat.env.app.chat.getConversation(conversation.id)).messages).toEqual([]);
  });
});
