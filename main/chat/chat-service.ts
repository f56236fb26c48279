// The chat: conversations and the tool loop, as the bridge sees them. This is the front of the chat's parts: the
// conversations' records (conversation-records.ts), the turns that answer them (chat-turns.ts), the edits of their
// history (message-edits.ts), presets and folders. Everything is persisted as it settles, so a reload or a restart
// shows the same.

import { randomUUID } from 'node:crypto';
import type { ContentPart } from '../../shared/api/index.js';
import type { Event } from '../../shared/events/index.js';
import type {
  ApprovalDecision,
  ChatEvent,
  ChatMessage,
  Conversation,
  ConversationDetail,
  ConversationsChanged,
  ResourceReference,
} from '../../shared/bridge/types.js';
import { maxImagesPerMessage } from '../../shared/bridge/limits.js';
import type { ChatLibraryStore, ChatStore, ConversationChanges } from '../store/index.js';
import {
  checkAttachmentTotal,
  documentParts,
  noAttachedFiles,
  textFileParts,
  type AttachedFiles,
} from './attached-files.js';
import { checkDocumentInput, checkImageInput, readAttachedResources } from './attached-resources.js';
import { ChatError } from './chat-error.js';
import { ChatFolders } from './chat-folders.js';
import { settingsOf, type NewConversationFields } from './chat-settings.js';
import { ChatTurns, type ChatTurnsOptions } from './chat-turns.js';
import {
  exportConversation,
  importedConversation,
  parseConversationExport,
  type ExportedFile,
  type ExportFormat,
} from './conversation-export.js';
import { ConversationRecords } from './conversation-records.js';
import { nextChosenOrder, pathTo, shownPath, versionsOnPath } from './conversation-tree.js';
import { MessageEdits } from './message-edits.js';
import { ChatPresets } from './presets.js';

export const newConversationTitle = 'New chat';
const titleLength = 60;

/** What the turns need (chat-turns.ts), and where conversations and their library are stored. */
export interface ChatServiceOptions extends Omit<ChatTurnsOptions, 'records'> {
  table: ChatStore;
  /** Presets, folders and where conversations are listed. */
  library: ChatLibraryStore;
  now?: () => number;
}

export class ChatService {
  /** Every event of every turn (text deltas, tool calls, approvals), for the UI. */
  readonly onEvent: Event<ChatEvent>;
  readonly onConversationsChanged: Event<ConversationsChanged>;
  readonly presets: ChatPresets;
  readonly folders: ChatFolders;
  private readonly records: ConversationRecords;
  private readonly turns: ChatTurns;
  private readonly edits: MessageEdits;
  private readonly table: ChatStore;
  private readonly now: () => number;

  constructor(private readonly options: ChatServiceOptions) {
    this.table = options.table;
    this.now = options.now ?? Date.now;
    this.records = new ConversationRecords(options.table, this.now, options.logger);
    this.turns = new ChatTurns({ ...options, records: this.records });
    this.edits = new MessageEdits({ records: this.records, turns: this.turns, models: options.models });
    this.onEvent = this.turns.onEvent;
    this.onConversationsChanged = this.records.onConversationsChanged;
    this.presets = new ChatPresets(options.library, this.now);
    this.folders = new ChatFolders({
      library: options.library,
      table: options.table,
      now: this.now,
      changed: (conversationId) => this.records.changed(conversationId, 'updated'),
    });
  }

  listConversations(query?: string): Promise<Conversation[]> {
    return this.table.listConversations({ query });
  }

  /** Without a model, takes the one of the most recent conversation (the user's last choice). */
  async createConversation(fields: NewConversationFields = {}): Promise<Conversation> {
    const now = this.now();
    const conversation: Conversation = {
      id: randomUUID(),
      title: newConversationTitle,
      model: fields.model ?? (await this.table.listConversations({ limit: 1 }))[0]?.model ?? null,
      ...settingsOf(fields),
      createdAt: now,
      updatedAt: now,
      pinned: false,
      folderId: null,
    };
    await this.table.insertConversation(conversation);
    this.records.changed(conversation.id, 'created');
    return conversation;
  }

  async getConversation(id: string): Promise<ConversationDetail> {
    const conversation = await this.records.requireConversation(id);
    const turn = this.turns.running(id);
    const stored = await this.table.listMessages(id);
    const path = turn ? pathTo(stored, turn.leafId) : shownPath(stored);
    const messages = path.map((message) => {
      if (turn?.live?.messageId !== message.id) return message;
      const { reply } = turn.live;
      return { ...message, content: reply.text, reasoning: reply.reasoning || null };
    });
    const pendingApprovals = [...(turn?.approvals.values() ?? [])].map((pending) => pending.approval);
    const versions = versionsOnPath(stored, path);
    return { conversation, messages, pendingApprovals, running: turn !== undefined, versions };
  }

  /** The conversation as a Markdown or JSON file (conversation-export.ts). */
  async exportConversation(id: string, format: ExportFormat): Promise<ExportedFile> {
    const conversation = await this.records.requireConversation(id);
    return exportConversation(conversation, await this.table.listMessages(id), format, this.now());
  }

  /** A JSON export as a new conversation; a file that is not one is refused with what is wrong with it. */
  async importConversation(text: string): Promise<Conversation> {
    const exported = parseConversationExport(text);
    const { conversation, messages } = importedConversation(exported, { newId: randomUUID, now: this.now() });
    await this.table.insertConversation(conversation);
    try {
      for (const message of messages) await this.table.insertMessage(message);
    } catch (error) {
      await this.table.deleteConversation(conversation.id); // all or nothing: no half conversation stays
      throw error;
    }
    this.records.changed(conversation.id, 'created');
    return conversation;
  }

  /** Shows this version of its place in the conversation, with what followed it when it was last shown. */
  async showVersion(conversationId: string, messageId: string): Promise<ConversationDetail> {
    await this.edits.showVersion(conversationId, messageId);
    return this.getConversation(conversationId);
  }

  renameConversation(id: string, title: string): Promise<Conversation> {
    return this.records.update(id, { title: title.trim() });
  }

  updateConversation(id: string, changes: Omit<ConversationChanges, 'title'>): Promise<Conversation> {
    return this.records.update(id, changes);
  }

  /** Stops its turn first, so nothing writes to it afterwards. */
  async deleteConversation(id: string): Promise<boolean> {
    await this.stop(id);
    const deleted = await this.table.deleteConversation(id);
    if (deleted) this.records.changed(id, 'deleted');
    return deleted;
  }

  /**
   * Stores the user's message and starts the turn; the reply arrives as events. Attached MCP resources are read
   * now: a text resource becomes a text part, an image one an image. Files from disk come as `files`.
   */
  async send(
    conversationId: string,
    text: string,
    images: readonly string[] = [],
    resources: readonly ResourceReference[] = [],
    files: AttachedFiles = noAttachedFiles,
  ): Promise<ChatMessage> {
    await this.turns.requireReady(conversationId);
    const attached = await readAttachedResources(this.options.tools, resources);
    const imageUrls = [...images, ...attached.images];
    const conversation = await this.turns.requireReady(conversationId); // again: a turn may have started while reading
    if (imageUrls.length > 0) await checkImageInput(this.options.models, conversation.model!);
    if (imageUrls.length > maxImagesPerMessage) {
      throw new ChatError('invalid-request', `At most ${maxImagesPerMessage} images per message, resources included.`);
    }
    if (files.documents.length > 0) await checkDocumentInput(this.options.models, conversation.model!);
    checkAttachmentTotal(imageUrls, files);

    const attachments = [
      ...textFileParts(files),
      ...attached.texts,
      ...imageUrls.map((url) => ({ type: 'image_url', image_url: { url } }) satisfies ContentPart),
      ...documentParts(files),
    ];
    const content: ChatMessage['content'] =
      attachments.length === 0
        ? text
        : [...(text.trim() === '' ? [] : [{ type: 'text', text } satisfies ContentPart]), ...attachments];
    const stored = await this.table.listMessages(conversationId);
    const message = this.records.newMessage(conversationId, {
      role: 'user',
      content,
      status: 'complete',
      parentId: shownPath(stored).at(-1)?.id ?? null,
      chosenOrder: nextChosenOrder(stored),
    });
    const title =
      conversation.title === newConversationTitle && text.trim() !== '' ? titleFrom(text) : conversation.title;
    await this.turns.preparingTurn(conversationId, message.id, async () => {
      await this.table.insertMessage(message);
      await this.records.update(conversationId, { title });
    });
    return message;
  }

  /** Answers the user message before this reply again (message-edits.ts). Answers the conversation. */
  regenerate(conversationId: string, messageId: string, model?: string): Promise<Conversation> {
    return this.edits.regenerate(conversationId, messageId, model);
  }

  /** A new version of one of the user's messages, answered by a new turn (message-edits.ts). */
  editMessage(conversationId: string, messageId: string, text: string): Promise<ChatMessage> {
    return this.edits.editMessage(conversationId, messageId, text);
  }

  /** Deletes one message and what follows it, in every version (message-edits.ts). Answers the ids deleted. */
  deleteMessage(conversationId: string, messageId: string): Promise<string[]> {
    return this.edits.deleteMessage(conversationId, messageId);
  }

  /** Aborts the upstream request and any running tool call; resolves once the turn has ended. */
  stop(conversationId: string): Promise<boolean> {
    return this.turns.stop(conversationId);
  }

  /** False when no such call is waiting (already decided, or the turn ended). */
  resolveApproval(conversationId: string, toolCallId: string, decision: ApprovalDecision): boolean {
    return this.turns.resolveApproval(conversationId, toolCallId, decision);
  }

  /** Stops every turn; later sends are refused. */
  close(): Promise<void> {
    return this.turns.close();
  }
}

/** A new conversation's title: the first line of its first message, shortened. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > titleLength ? `${line.slice(0, titleLength - 1)}…` : line;
}
