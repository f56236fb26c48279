// Folders of the conversation list, and where a conversation is listed: pinned (first, under "Pinned") and in
// which folder. Neither moves a conversation in time: its updatedAt stays, so the order within a group is the
// order of its conversations' last messages. A deleted folder's conversations stay, out of any folder.

import { randomUUID } from 'node:crypto';
import type { ChatFolder, Conversation } from '../../shared/bridge/types.js';
import type { ChatLibraryStore, ChatStore, ConversationPlace } from '../store/index.js';
import { ChatError } from './chat-error.js';

export interface ChatFoldersOptions {
  library: ChatLibraryStore;
  table: ChatStore;
  now: () => number;
  /** A conversation's place changed: lists refresh. */
  changed(conversationId: string): void;
}

export class ChatFolders {
  constructor(private readonly options: ChatFoldersOptions) {}

  list(): Promise<ChatFolder[]> {
    return this.options.library.listFolders();
  }

  /** Without an id, a new folder; with one, that folder renamed. */
  async save(fields: { id?: string; name: string }): Promise<ChatFolder> {
    const existing = fields.id === undefined ? undefined : await this.options.library.getFolder(fields.id);
    if (fields.id !== undefined && !existing) throw new ChatError('not-found', `There is no folder "${fields.id}".`);
    const folder: ChatFolder = {
      id: existing?.id ?? randomUUID(),
      name: fields.name.trim(),
      createdAt: existing?.createdAt ?? this.options.now(),
    };
    await this.options.library.saveFolder(folder);
    return folder;
  }

  async delete(id: string): Promise<boolean> {
    const moved = (await this.options.table.listConversations({ limit: -1 })).filter(
      (conversation) => conversation.folderId === id,
    );
    const deleted = await this.options.library.deleteFolder(id);
    for (const conversation of moved) this.options.changed(conversation.id);
    return deleted;
  }

  async place(id: string, place: ConversationPlace): Promise<Conversation> {
    if (place.folderId && !(await this.options.library.getFolder(place.folderId))) {
      throw new ChatError('not-found', `There is no folder "${place.folderId}".`);
    }
    const conversation =
      (await this.options.library.placeConversation(id, place)) && (await this.options.table.getConversation(id));
    if (!conversation) throw new ChatError('not-found', `There is no conversation "${id}".`);
    this.options.changed(id);
    return conversation;
  }
}
