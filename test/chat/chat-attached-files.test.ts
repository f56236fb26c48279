// Files from the user's disk sent with a message, through the bridge as the UI sends them: a PDF reaches the model
// as a `file` part, a text file as a text part naming it (its text fenced), an image as an image; a model that
// cannot read PDFs is refused before anything is sent, and the limits of a message are said plainly.

import { describe, expect, it } from 'vitest';
import { textFileOfPart } from '../../shared/bridge/chat-message.js';
import { maxTextFileChars } from '../../shared/bridge/limits.js';
import { waitFor } from '../support/wait-for.js';
import { useChatBridge } from './chat-test-app.js';

const chat = useChatBridge();
const { call, failure } = chat;

const pdf = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64')}`;
const png = `data:image/png;base64,${Buffer.from('not really a png').toString('base64')}`;
const csv = 'city,people\nLyon,522250\n';

async function settled(conversationId: string) {
  await waitFor(async () => !(await chat.env.app.chat.getConversation(conversationId)).running, {
    what: 'the end of the turn',
  });
}

describe('files attached to a message', () => {
  it('go to a model that reads them as a PDF file part, a fenced text part and an image part', async () => {
    const { conversation } = await call('chat:create-conversation', { model: 'fake/scripted-pdf' });
    const before = chat.env.upstream.chatRequests().length;
    const { message } = await call('chat:send', {
      conversationId: conversation.id,
      text: 'Compare these',
      images: [png],
      documents: [{ name: 'report.pdf', dataUrl: pdf }],
      textFiles: [{ name: 'cities.csv', text: csv }],
    });
    await settled(conversation.id);

    const sent = chat.env.upstream.chatRequests().slice(before)[0]?.body?.messages?.at(-1);
    expect(sent).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Compare these' },
        { type: 'text', text: `Attached file cities.csv:\n\n\`\`\`csv\n${csv}\n\`\`\`` },
        { type: 'image_url', image_url: { url: png } },
        { type: 'file', file: { filename: 'report.pdf', file_data: pdf } },
      ],
    });
    // The stored message knows the text part is a file, for the screen; the model never sees that field.
    const parts = Array.isArray(message.content) ? message.content : [];
    expect(textFileOfPart(parts[1]!)).toEqual({ name: 'cities.csv', chars: csv.length });
    const stored = (await call('chat:get-conversation', { id: conversation.id })).messages[0]!;
    expect(stored.content).toEqual(message.content);

    // Editing the text keeps every attachment.
    const { message: edited } = await call('chat:edit-message', {
      conversationId: conversation.id,
      messageId: message.id,
      text: 'Compare them briefly',
    });
    const editedParts = Array.isArray(edited.content) ? edited.content : [];
    expect(editedParts.map((part) => textFileOfPart(part)?.name ?? part.type)).toEqual([
      'text',
      'cities.csv',
      'image_url',
      'file',
    ]);
    await settled(conversation.id);

    // Answering it again with a model that reads images but not PDFs is refused, and the reply stays.
    const reply = (await call('chat:get-conversation', { id: conversation.id })).messages[1]!;
    expect(
      await failure('chat:regenerate', {
        conversationId: conversation.id,
        messageId: reply.id,
        model: 'fake/scripted-vision',
      }),
    ).toMatchObject({
      code: 'invalid-request',
      message: 'fake/scripted-vision does not accept PDFs: remove them or choose another model.',
    });
    expect((await call('chat:get-conversation', { id: conversation.id })).messages.map((m) => m.id)).toEqual([
      edited.id, // the edit is a version beside the first message, and the one shown
      reply.id,
    ]);
  });

  it('fence a text file that holds backticks with a longer fence, and go to a model that takes no images', async () => {
    const { conversation } = await call('chat:create-conversation', { model: 'fake/scripted-1' });
    const before = chat.env.upstream.chatRequests().length;
    const readme = 'Run:\n\n```sh\nnpm test\n```\n';
    await call('chat:send', {
      conversationId: conversation.id,
      text: '',
      textFiles: [{ name: 'README.md', text: readme }],
    });
    await settled(conversation.id);
    const sent = chat.env.upstream.chatRequests().slice(before)[0]?.body?.messages?.at(-1);
    expect(sent).toEqual({
      role: 'user',
      content: [{ type: 'text', text: `Attached file README.md:\n\n\`\`\`\`md\n${readme}\n\`\`\`\`` }],
    });
  });

  it('refuse a PDF for a model that cannot read one, before anything is sent', async () => {
    const { conversation } = await call('chat:create-conversation', { model: 'fake/scripted-vision' });
    const before = chat.env.upstream.chatRequests().length;
    expect(
      await failure('chat:send', {
        conversationId: conversation.id,
        text: 'Read this',
        documents: [{ name: 'report.pdf', dataUrl: pdf }],
      }),
    ).toEqual(
      expect.objectContaining({
        code: 'invalid-request',
        message: 'fake/scripted-vision does not accept PDFs: remove them or choose another model.',
      }),
    );
    expect(chat.env.upstream.chatRequests()).toHaveLength(before);
    expect((await call('chat:get-conversation', { id: conversation.id })).messages).toEqual([]);
  });

  it('say plainly what is not a PDF, what is too long and what is too much for one message', async () => {
    const { conversation } = await call('chat:create-conversation', { model: 'fake/scripted-pdf' });
    const conversationId = conversation.id;
    expect(
      await failure('chat:send', { conversationId, text: 'x', documents: [{ name: 'a.pdf', dataUrl: png }] }),
    ).toMatchObject({ code: 'invalid-request', message: expect.stringContaining('application/pdf') });
    expect(
      await failure('chat:send', {
        conversationId,
        text: 'x',
        textFiles: [{ name: 'big.txt', text: 'a'.repeat(maxTextFileChars + 1) }],
      }),
    ).toMatchObject({ code: 'invalid-request' });
    const fourMiB = `data:application/pdf;base64,${Buffer.alloc(4 * 1024 * 1024).toString('base64')}`;
    expect(
      await failure('chat:send', {
        conversationId,
        text: 'x',
        documents: [
          { name: 'one.pdf', dataUrl: fourMiB },
          { name: 'two.pdf', dataUrl: fourMiB },
        ],
      }),
    ).toMatchObject({
      code: 'invalid-request',
      message: 'The attachments of this message come to 8.0 MiB; at most 7.0 MiB can go with one message.',
    });
    expect((await call('chat:get-conversation', { id: conversationId })).messages).toEqual([]);
  });
});
