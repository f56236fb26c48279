// A conversation's settings, presets and folders through the bridge as the UI calls it, against the real app and
// gateway: the settings a conversation is created or updated with reach the upstream in each of its requests.

import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatPreset, ConversationsChanged } from '../../shared/bridge/types.js';
import { waitFor } from '../support/wait-for.js';
import { useChatBridge } from './chat-test-app.js';

const bridge = useChatBridge();

/** Sends the text and answers the body of the request the upstream received for it, once the turn is over. */
async function requestFor(conversationId: string, text: string) {
  const before = bridge.env.upstream.chatRequests().length;
  await bridge.call('chat:send', { conversationId, text });
  await waitFor(
    () =>
      bridge.env.events.some(
        (event: ChatEvent) =>
          event.type === 'turn-finish' &&
          event.conversationId === conversationId &&
          bridge.env.upstream.chatRequests().length > before,
      ),
    { what: 'the end of the turn' },
  );
  await waitFor(async () => !(await bridge.call('chat:get-conversation', { id: conversationId })).running, {
    what: 'the turn to settle',
  });
  return bridge.env.upstream.chatRequests().at(-1)!.body as Record<string, unknown>;
}

describe('a conversation’s settings', () => {
  it('are sent with each request: those it was created with, then those it was changed to', async () => {
    const { conversation } = await bridge.call('chat:create-conversation', {
      model: 'fake/scripted-1',
      systemPrompt: 'Answer in French.',
      temperature: 0.3,
      maxTokens: 256,
      topP: 0.8,
      seed: 42,
      stop: ['\n\nUser:', 'END'],
    });
    expect(conversation).toMatchObject({ maxTokens: 256, topP: 0.8, seed: 42, stop: ['\n\nUser:', 'END'] });

    const first = await requestFor(conversation.id, 'Hello');
    expect(first).toMatchObject({
      temperature: 0.3,
      max_tokens: 256,
      top_p: 0.8,
      seed: 42,
      stop: ['\n\nUser:', 'END'],
    });
    expect((first.messages as { role: string; content: unknown }[])[0]).toEqual({
      role: 'system',
      content: 'Answer in French.',
    });

    await bridge.call('chat:update-conversation', {
      id: conversation.id,
      temperature: null,
      maxTokens: null,
      topP: 0.5,
      seed: null,
      stop: [],
    });
    const second = await requestFor(conversation.id, 'Again');
    expect(second.top_p).toBe(0.5);
    for (const unset of ['temperature', 'max_tokens', 'seed', 'stop']) expect(second).not.toHaveProperty(unset);
  });

  it('leave the reasoning effort out for a model known not to reason', async () => {
    const { conversation } = await bridge.call('chat:create-conversation', {
      model: 'fake/scripted-1',
      reasoningEffort: 'high',
    });
    expect(conversation.reasoningEffort).toBe('high');
    const body = await requestFor(conversation.id, 'Hello');
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(body).not.toHaveProperty('reasoning');
  });

  it('are refused when out of range, with what is wrong', async () => {
    const temperature = await bridge.failure('chat:create-conversation', { temperature: 5 });
    expect(temperature.message).toMatch(/temperature/);
    const stop = await bridge.failure('chat:update-conversation', { id: 'x', stop: ['a', 'b', 'c', 'd', 'e'] });
    expect(stop.message).toMatch(/stop/);
    const topP = await bridge.failure('chat:create-conversation', { topP: 1.5 });
    expect(topP.message).toMatch(/topP/);
  });
});

/** A stored preset as the UI sends it back to change it. */
const fieldsOf = ({ createdAt: _created, updatedAt: _updated, ...fields }: ChatPreset) => fields;

describe('presets', () => {
  it('are saved, renamed, made the only default and deleted', async () => {
    const { preset: writer } = await bridge.call('chat:save-preset', {
      name: ' Writer ',
      model: 'fake/scripted-1',
      systemPrompt: 'Write well.',
      temperature: 1.1,
      stop: ['THE END'],
      isDefault: true,
    });
    expect(writer).toMatchObject({ name: 'Writer', isDefault: true, maxTokens: null, stop: ['THE END'] });
    const { preset: coder } = await bridge.call('chat:save-preset', {
      name: 'Coder',
      model: null,
      systemPrompt: '',
      temperature: 0,
      isDefault: true,
    });
    await bridge.call('chat:save-preset', { ...fieldsOf(writer), name: 'Author', isDefault: false });
    const { presets } = await bridge.call('chat:list-presets', {});
    expect(presets.map(({ name, isDefault }) => ({ name, isDefault }))).toEqual([
      { name: 'Author', isDefault: false },
      { name: 'Coder', isDefault: true },
    ]);
    expect(presets[0]).toMatchObject({ id: writer.id, createdAt: writer.createdAt, systemPrompt: 'Write well.' });

    expect((await bridge.failure('chat:save-preset', { ...fieldsOf(coder), id: 'gone' })).message).toMatch(/no preset/);
    expect(
      (await bridge.failure('chat:save-preset', { ...fieldsOf(coder), id: undefined, name: '  ' })).message,
    ).toMatch(/needs a name/);
    expect(await bridge.call('chat:delete-preset', { id: coder.id })).toEqual({ deleted: true });
    expect(await bridge.call('chat:delete-preset', { id: writer.id })).toEqual({ deleted: true });
    expect((await bridge.call('chat:list-presets', {})).presets).toEqual([]);
  });
});

describe('pins and folders', () => {
  it('place a conversation without moving it in time; a deleted folder lets its conversations out', async () => {
    const changes: ConversationsChanged[] = [];
    const unsubscribe = bridge.env.app.chat.onConversationsChanged((change) => changes.push(change));
    const { conversation } = await bridge.call('chat:create-conversation', { model: 'fake/scripted-1' });
    const { folder } = await bridge.call('chat:save-folder', { name: 'Work' });
    const { folder: renamed } = await bridge.call('chat:save-folder', { id: folder.id, name: 'Projects' });
    expect(renamed).toEqual({ ...folder, name: 'Projects' });

    const { conversation: placed } = await bridge.call('chat:place-conversation', {
      id: conversation.id,
      pinned: true,
      folderId: folder.id,
    });
    expect(placed).toMatchObject({ pinned: true, folderId: folder.id, updatedAt: conversation.updatedAt });
    expect(
      (await bridge.failure('chat:place-conversation', { id: conversation.id, folderId: 'none' })).message,
    ).toMatch(/no folder/);

    changes.length = 0;
    expect(await bridge.call('chat:delete-folder', { id: folder.id })).toEqual({ deleted: true });
    const { conversation: after } = await bridge.call('chat:get-conversation', { id: conversation.id });
    expect(after).toMatchObject({ pinned: true, folderId: null });
    expect(changes).toContainEqual({ conversationId: conversation.id, change: 'updated' });
    expect((await bridge.call('chat:list-folders', {})).folders).toEqual([]);
    unsubscribe.dispose();
  });
});
