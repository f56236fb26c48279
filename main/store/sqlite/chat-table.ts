// SQL for the chat: conversations and their messages. JSON columns hold what has no fixed shape (content parts,
// tool calls, usage, reasoning details). Search is LIKE over titles and over `search_text`, the plain text of each
// message: substring matches for any script, and a user's history is small enough for a scan to be quick.

import type { Database, Statement } from 'better-sqlite3';
import type { ChatMessage, Conversation } from '../../../shared/bridge/types.js';
import { definedOnly, escapeLike, toMessage, toMessageColumns } from '../contract/chat.js';
import type { ConversationChanges, MessageChanges, MessageColumns } from '../contract/chat.js';
import { toConversation, toConversationColumns, type ConversationColumns } from '../contract/conversation-columns.js';

// Read under the Conversation's own field names, so that a row is a Conversation as it comes.
const conversationColumns =
  'id, title, model, system_prompt AS systemPrompt, temperature, created_at AS createdAt, updated_at AS updatedAt, ' +
  'max_tokens AS maxTokens, top_p AS topP, seed, stop, reasoning_effort AS reasoningEffort, pinned, ' +
  'folder_id AS folderId';
const messageColumns =
  'id, conversation_id, role, content, tool_calls, tool_call_id, reasoning, reasoning_details, usage, cost, model, ' +
  'status, error, created_at, search_text, parent_id, chosen_order';

export const chatSchema = `
  CREATE TABLE conversations (
    id TEXT PRIMARY KEY NOT NULL,
    title TEXT NOT NULL,
    model TEXT,
    system_prompt TEXT NOT NULL,
    temperature REAL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX conversations_updated_at ON conversations (updated_at);

  CREATE TABLE messages (
    id TEXT PRIMARY KEY NOT NULL,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
    content TEXT,
    tool_calls TEXT,
    tool_call_id TEXT,
    reasoning TEXT,
    reasoning_details TEXT,
    usage TEXT,
    cost REAL,
    model TEXT,
    status TEXT NOT NULL,
    error TEXT,
    created_at INTEGER NOT NULL,
    search_text TEXT NOT NULL
  ) STRICT;
  CREATE INDEX messages_conversation_id ON messages (conversation_id);
`;

export class ChatTable {
  private readonly insertConversationStatement: Statement<[ConversationColumns]>;
  private readonly getConversationStatement: Statement<[string], ConversationColumns>;
  private readonly listConversationsStatement: Statement<[{ limit: number }], ConversationColumns>;
  private readonly searchConversationsStatement: Statement<[{ pattern: string; limit: number }], ConversationColumns>;
  private readonly deleteConversationStatement: Statement<[string]>;
  private readonly insertMessageStatement: Statement<[MessageColumns]>;
  private readonly getMessageStatement: Statement<[string], MessageColumns>;
  private readonly listMessagesStatement: Statement<[string], MessageColumns>;
  private readonly updateConversationStatement: Statement<[ConversationColumns]>;
  private readonly updateMessageStatement: Statement<[MessageColumns]>;
  private readonly deleteMessagesTransaction: (ids: readonly string[]) => number;

  constructor(db: Database) {
    this.insertConversationStatement = db.prepare(
      `INSERT INTO conversations (id, title, model, system_prompt, temperature, created_at, updated_at, max_tokens,
         top_p, seed, stop, reasoning_effort, pinned, folder_id)
       VALUES (@id, @title, @model, @systemPrompt, @temperature, @createdAt, @updatedAt, @maxTokens, @topP, @seed,
         @stop, @reasoningEffort, @pinned, @folderId)`,
    );
    this.getConversationStatement = db.prepare(`SELECT ${conversationColumns} FROM conversations WHERE id = ?`);
    this.listConversationsStatement = db.prepare(
      `SELECT ${conversationColumns} FROM conversations ORDER BY updated_at DESC, rowid DESC LIMIT @limit`,
    );
    this.searchConversationsStatement = db.prepare(
      `SELECT ${conversationColumns} FROM conversations c
       WHERE c.title LIKE @pattern ESCAPE '\\'
          OR EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.search_text LIKE @pattern ESCAPE '\\')
       ORDER BY updated_at DESC, rowid DESC LIMIT @limit`,
    );
    this.deleteConversationStatement = db.prepare('DELETE FROM conversations WHERE id = ?');
    this.insertMessageStatement = db.prepare(
      `INSERT INTO messages (${messageColumns}) VALUES (@id, @conversation_id, @role, @content, @tool_calls,
         @tool_call_id, @reasoning, @reasoning_details, @usage, @cost, @model, @status, @error, @created_at,
         @search_text, @parent_id, @chosen_order)`,
    );
    this.getMessageStatement = db.prepare(`SELECT ${messageColumns} FROM messages WHERE id = ?`);
    this.listMessagesStatement = db.prepare(
      `SELECT ${messageColumns} FROM messages WHERE conversation_id = ? ORDER BY created_at, rowid`,
    );
    this.updateConversationStatement = db.prepare(
      `UPDATE conversations SET title = @title, model = @model, system_prompt = @systemPrompt,
         temperature = @temperature, updated_at = @updatedAt, max_tokens = @maxTokens, top_p = @topP, seed = @seed,
         stop = @stop, reasoning_effort = @reasoningEffort WHERE id = @id`,
    );
    this.updateMessageStatement = db.prepare(
      `UPDATE messages SET content = @content, tool_calls = @tool_calls, reasoning = @reasoning,
         reasoning_details = @reasoning_details, usage = @usage, cost = @cost, status = @status, error = @error,
         search_text = @search_text, chosen_order = @chosen_order WHERE id = @id`,
    );
    const deleteMessage = db.prepare<[string]>('DELETE FROM messages WHERE id = ?');
    this.deleteMessagesTransaction = db.transaction((ids: readonly string[]) =>
      ids.reduce((deleted, id) => deleted + deleteMessage.run(id).changes, 0),
    );
  }

  insertConversation(conversation: Conversation): void {
    this.insertConversationStatement.run(toConversationColumns(conversation));
  }

  getConversation(id: string): Conversation | undefined {
    const columns = this.getConversationStatement.get(id);
    return columns && toConversation(columns);
  }

  /** Most recently updated first; `query` matches titles and message text, case-insensitively for ASCII. */
  listConversations(options: { query?: string; limit?: number } = {}): Conversation[] {
    const limit = options.limit ?? 500;
    const query = options.query?.trim();
    const rows = query
      ? this.searchConversationsStatement.all({ pattern: `%${escapeLike(query)}%`, limit })
      : this.listConversationsStatement.all({ limit });
    return rows.map(toConversation);
  }

  /** Changes the given fields and sets updated_at; undefined when there is no such conversation. */
  updateConversation(id: string, changes: ConversationChanges, updatedAt: number): Conversation | undefined {
    const current = this.getConversation(id);
    if (!current) return undefined;
    const next = { ...current, ...definedOnly(changes), updatedAt };
    this.updateConversationStatement.run(toConversationColumns(next));
    return next;
  }

  /** Deletes the conversation and its messages. */
  deleteConversation(id: string): boolean {
    return this.deleteConversationStatement.run(id).changes > 0;
  }

  insertMessage(message: ChatMessage): void {
    this.insertMessageStatement.run(toMessageColumns(message));
  }

  getMessage(id: string): ChatMessage | undefined {
    const columns = this.getMessageStatement.get(id);
    return columns && toMessage(columns);
  }

  /** Oldest first. */
  listMessages(conversationId: string): ChatMessage[] {
    return this.listMessagesStatement.all(conversationId).map(toMessage);
  }

  /** Deletes these messages, all or none; answers how many there were. */
  deleteMessages(ids: readonly string[]): number {
    return ids.length === 0 ? 0 : this.deleteMessagesTransaction(ids);
  }

  updateMessage(id: string, changes: MessageChanges): ChatMessage | undefined {
    const current = this.getMessage(id);
    if (!current) return undefined;
    const next: ChatMessage = { ...current, ...definedOnly(changes) };
    this.updateMessageStatement.run(toMessageColumns(next));
    return next;
  }
}
