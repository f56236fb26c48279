// Schema version 12 on both engines: a conversation's settings, pins and folders, the folders themselves and the
// presets are stored and read back alike by SQLite and PostgreSQL.

import { describe, expect, it } from 'vitest';
import { defaultChatSettings } from '../../shared/bridge/chat-message.js';
import type { ChatPreset, Conversation } from '../../shared/bridge/types.js';
import { useStoreEngines } from '../../test/support/postgres-store.js';

const engines = useStoreEngines('switchyard-library-');

const plain: Conversation = {
  id: 'c-plain',
  title: 'Plain',
  model: 'p/m',
  systemPrompt: '',
  temperature: null,
  createdAt: 1_000,
  updatedAt: 1_000,
};

const tuned: Conversation = {
  ...plain,
  id: 'c-tuned',
  title: 'Tuned',
  systemPrompt: 'Be brief.',
  temperature: 0.4,
  maxTokens: 300,
  topP: 0.9,
  seed: 9_007_199_254_740_991,
  stop: ['\n\nUser:', 'END'],
  reasoningEffort: 'high',
  pinned: false,
  folderId: null,
};

function preset(fields: Partial<ChatPreset> & Pick<ChatPreset, 'id' | 'name'>): ChatPreset {
  return {
    model: null,
    ...defaultChatSettings,
    isDefault: false,
    createdAt: 5,
    updatedAt: 5,
    ...fields,
  };
}

describe.each(engines)('the $name engine (schema 12)', ({ open }) => {
  it('keeps a conversation’s settings, and gives one stored without them the defaults', async () => {
    const store = await open();
    await store.chat.insertConversation(plain);
    await store.chat.insertConversation(tuned);
    expect(await store.chat.getConversation('c-tuned')).toEqual(tuned);
    expect(await store.chat.getConversation('c-plain')).toEqual({
      ...plain,
      maxTokens: null,
      topP: null,
      seed: null,
      stop: [],
      reasoningEffort: null,
      pinned: false,
      folderId: null,
    });

    const updated = await store.chat.updateConversation('c-tuned', { maxTokens: null, stop: ['Q:'], topP: 1 }, 2_000);
    expect(updated).toMatchObject({ maxTokens: null, stop: ['Q:'], topP: 1, seed: tuned.seed, updatedAt: 2_000 });
    expect(await store.chat.getConversation('c-tuned')).toEqual(updated);
    expect((await store.chat.listConversations()).map((conversation) => conversation.stop)).toEqual([['Q:'], []]);
  });

  it('pins conversations and files them in folders without moving them in time', async () => {
    const store = await open();
    await store.chat.insertConversation(plain);
    await store.chat.insertConversation(tuned);
    await store.chatLibrary.saveFolder({ id: 'f-work', name: 'Work', createdAt: 10 });
    await store.chatLibrary.saveFolder({ id: 'f-home', name: 'home', createdAt: 11 });
    await store.chatLibrary.saveFolder({ id: 'f-work', name: 'Projects', createdAt: 99 });
    expect(await store.chatLibrary.listFolders()).toEqual([
      { id: 'f-home', name: 'home', createdAt: 11 },
      { id: 'f-work', name: 'Projects', createdAt: 10 },
    ]);

    expect(await store.chatLibrary.placeConversation('c-plain', { pinned: true })).toBe(true);
    expect(await store.chatLibrary.placeConversation('c-plain', { folderId: 'f-work' })).toBe(true);
    expect(await store.chatLibrary.placeConversation('c-tuned', { folderId: 'f-work' })).toBe(true);
    expect(await store.chatLibrary.placeConversation('c-none', { pinned: true })).toBe(false);
    expect(await store.chat.getConversation('c-plain')).toMatchObject({
      pinned: true,
      folderId: 'f-work',
      updatedAt: 1_000,
    });
    await store.chatLibrary.placeConversation('c-tuned', { folderId: null });
    expect(await store.chat.getConversation('c-tuned')).toMatchObject({ pinned: false, folderId: null });

    expect(await store.chatLibrary.deleteFolder('f-work')).toBe(true);
    expect(await store.chatLibrary.deleteFolder('f-work')).toBe(false);
    expect(await store.chat.getConversation('c-plain')).toMatchObject({ pinned: true, folderId: null });
    expect(await store.chatLibrary.listFolders()).toEqual([{ id: 'f-home', name: 'home', createdAt: 11 }]);
  });

  it('keeps presets by name, with at most one default', async () => {
    const store = await open();
    const writer = preset({
      id: 'p-writer',
      name: 'Writer',
      model: 'p/m',
      systemPrompt: 'Write well.',
      temperature: 1.2,
      maxTokens: 2_000,
      topP: 0.5,
      seed: -3,
      stop: ['THE END'],
      reasoningEffort: 'low',
      isDefault: true,
    });
    await store.chatLibrary.savePreset(writer);
    await store.chatLibrary.savePreset(preset({ id: 'p-coder', name: 'coder', isDefault: true, createdAt: 6 }));
    expect(await store.chatLibrary.listPresets()).toEqual([
      preset({ id: 'p-coder', name: 'coder', isDefault: true, createdAt: 6, updatedAt: 5 }),
      { ...writer, isDefault: false },
    ]);

    await store.chatLibrary.savePreset({ ...writer, name: 'Author', isDefault: true, createdAt: 77, updatedAt: 8 });
    expect(await store.chatLibrary.getPreset('p-writer')).toEqual({
      ...writer,
      name: 'Author',
      isDefault: true,
      updatedAt: 8,
    });
    expect((await store.chatLibrary.listPresets()).filter((each) => each.isDefault).map((each) => each.id)).toEqual([
      'p-writer',
    ]);
    expect(await store.chatLibrary.deletePreset('p-writer')).toBe(true);
    expect(await store.chatLibrary.deletePreset('p-writer')).toBe(false);
    expect((await store.chatLibrary.listPresets()).map((each) => each.id)).toEqual(['p-coder']);
  });
});
