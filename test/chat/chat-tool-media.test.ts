// A tool that returns an image, in the chat, through the real app and server-everything's get-tiny-image: the
// image is kept with the tool message for the user to see, and the model is given the text that describes it.

import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../shared/bridge/types.js';
import { mediaOfPart } from '../../shared/bridge/tool-media.js';
import { waitFor } from '../support/wait-for.js';
import { useChatTestApp } from './chat-test-app.js';

const env = useChatTestApp();

describe('a tool result with an image', () => {
  it('is stored with its image as a part, and reaches the model as text', async () => {
    const conversation = await env.app.chat.createConversation({ model: 'fake/scripted-1' });
    const before = env.upstream.chatRequests().length;
    await env.app.chat.send(conversation.id, 'show me a tiny image');
    const { approval } = await waitFor(
      () =>
        env.events.find(
          (event): event is Extract<ChatEvent, { type: 'approval-required' }> =>
            event.type === 'approval-required' && event.conversationId === conversation.id,
        ),
      { what: 'the approval request' },
    );
    expect(approval.tool).toBe('get-tiny-image');
    env.app.chat.resolveApproval(conversation.id, approval.toolCallId, 'once');
    await waitFor(async () => !(await env.app.chat.getConversation(conversation.id)).running, {
      what: 'the end of the turn',
    });

    const result = (await env.app.chat.getConversation(conversation.id)).messages.find((m) => m.role === 'tool');
    expect(Array.isArray(result?.content)).toBe(true);
    const parts = Array.isArray(result?.content) ? result.content : [];
    expect(parts[0]).toMatchObject({ type: 'text', text: expect.stringContaining('[image image/png, ') });
    const media = parts.flatMap((part) => mediaOfPart(part) ?? []);
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(Buffer.from(media[0]!.data, 'base64').subarray(1, 4).toString()).toBe('PNG');

    const followUp = env.upstream.chatRequests().slice(before)[1]?.body?.messages?.at(-1);
    expect(followUp?.role).toBe('tool');
    expect(typeof followUp?.content).toBe('string');
    expect(followUp?.content).toContain("Here's the image you requested:\n[image image/png, ");
    // The tool's image is not the user's: a reply after it can be regenerated with a model that takes no images.
    await env.app.chat.send(conversation.id, 'thanks');
    await waitFor(async () => !(await env.app.chat.getConversation(conversation.id)).running, {
      what: 'the second turn',
    });
    const reply = (await env.app.chat.getConversation(conversation.id)).messages.at(-1)!;
    await expect(env.app.chat.regenerate(conversation.id, reply.id, 'fake/scripted-1')).resolves.toMatchObject({
      model: 'fake/scripted-1',
    });
  });
});
