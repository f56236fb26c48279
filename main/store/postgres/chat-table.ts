// SQL for the chat's conversations and messages in PostgreSQL's dialect, answering what the SQLite engine's ChatTable
// answers (../sqlite/chat-table.ts). SQLite breaks ties of time by rowid, the order rows were inserted in; here
// `insert_order` (an identity column only PostgreSQL has) keeps that order. Search is a substring match over titles and
// messages' search_text that ignores the case of ASCII letters only, as SQLite's LIKE does, whatever the database's
// locale.

import type pg from 'pg';
import type { ChatMessage, Conversation } from '../../../shared/bridge/types.js';
import { definedOnly, escapeLike, toMessage, toMessageColumns } from '../contract/chat.js';
import type { ConversationChanges, MessageChanges, MessageColumns } from '../contract/chat.js';
import { stopText, toConversation, type ConversationColumns } from '../contract/conversation-columns.js';
import type { ChatStore } from '../contract/store-interface.js';

const conversationColumns =
  'id, title, model, system_prompt AS "systemPrompt", temperature, created_at AS "createdAt", updated_at AS "updatedAt", ' +
  'max_tokens AS "maxTokens", top_p AS "topP", seed, stop, reasoning_effort AS "reasoningEffort", pinned, ' +
  'folder_id AS "folderId"';
const messageFields: (keyof MessageColumns)[] = [
  'id',
  'conversation_id',
  'role',
  'content',
  'tool_calls',
  'tool_call_id',
  'reasoning',
  'reasoning_details',
  'usage',
  'cost',
  'model',
  'status',
  'error',
  'created_at',
  'search_text',
  'parent_id',
  'chosen_order',
];
const messageColumns = messageFields.join(', ');

const asciiUpper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const asciiLower = asciiUpper.toLowerCase();
/** `column` with its ASCII letters in lower case, and nothing else changed. */
const foldAscii = (column: string) => `translate(${column}, '${asciiUpper}', '${asciiLower}')`;

export class PostgresChatTable implements ChatStore {
  constructor(private readonly pool: pg.Pool) {}

  async insertConversation(conversation: Conversation): Promise<void> {
    await this.pool.query(
      `INSERT INTO conversations (id, title, model, system_prompt, temperature, created_at, updated_at, max_tokens,
         top_p, seed, stop, reasoning_effort, pinned, folder_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        conversation.id,
        conversation.title,
        conversation.model,
        conversation.systemPrompt,
        conversation.temperature,
        conversation.createdAt,
        conversation.updatedAt,
        conversation.maxTokens ?? null,
        conversation.topP ?? null,
        conversation.seed ?? null,
        stopText(conversation.stop),
        conversation.reasoningEffort ?? null,
        conversation.pinned ?? false,
        conversation.folderId ?? null,
      ],
    );
  }

  async getConversation(id: string): Promise<Conversation | undefined> {
    const { rows } = await this.pool.query<ConversationColumns>(
      `SELECT ${conversationColumns} FROM conversations WHERE id = $1`,
      [id],
    );
    return rows[0] && toConversation(rows[0]);
  }

  async listConversations(options: { query?: string; limit?: number } = {}): Promise<Conversation[]> {
    const limit = options.limit ?? 500;
    const query = options.query?.trim();
    const order = 'ORDER BY updated_at DESC, insert_order DESC LIMIT $1';
    if (!query) {
      const { rows } = await this.pool.query<ConversationColumns>(
        `SELECT ${conversationColumns} FROM conversations ${order}`,
        [sqlLimit(limit)],
      );
      return rows.map(toConversation);
    }
    const pattern = `%${escapeLike(foldAsciiText(query))}%`;
    const { rows } = await this.pool.query<ConversationColumns>(
      `SELECT ${conversationColumns} FROM conversations c
       WHERE ${foldAscii('c.title')} LIKE $2 ESCAPE '\\'
          OR EXISTS (SELECT 1 FROM messages m
                     WHERE m.conversation_id = c.id AND ${foldAscii('m.search_text')} LIKE $2 ESCAPE '\\')
       ${order}`,
      [sqlLimit(limit), pattern],
    );
    return rows.map(toConversation);
  }

  async updateConversation(
    id: string,
    changes: ConversationChanges,
    updatedAt: number,
  ): Promise<Conversation | undefined> {
    const { rows } = await this.pool.query<ConversationColumns>(
      `UPDATE conversations SET
         title = CASE WHEN $2 THEN $3 ELSE title END,
         model = CASE WHEN $4 THEN $5 ELSE model END,
         system_prompt = CASE WHEN $6 THEN $7 ELSE system_prompt END,
         temperature = CASE WHEN $8 THEN $9::double precision ELSE temperature END,
         updated_at = $10,
         max_tokens = CASE WHEN $11 THEN $12::bigint ELSE max_tokens END,
         top_p = CASE WHEN $13 THEN $14::double precision ELSE top_p END,
         seed = CASE WHEN $15 THEN $16::bigint ELSE seed END,
         stop = CASE WHEN $17 THEN $18 ELSE stop END,
         reasoning_effort = CASE WHEN $19 THEN $20 ELSE reasoning_effort END
       WHERE id = $1 RETURNING ${conversationColumns}`,
      [
        id,
        ...change(changes.title),
        ...change(changes.model),
        ...change(changes.systemPrompt),
        ...change(changes.temperature),
        updatedAt,
        ...change(changes.maxTokens),
        ...change(changes.topP),
        ...change(changes.seed),
        ...change(changes.stop, stopText(changes.stop)),
        ...change(changes.reasoningEffort),
      ],
    );
    return rows[0] && toConversation(rows[0]);
  }

  async deleteConversation(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM conversations WHERE id = $1', [id]);
    return (rowCount ?? 0) > 0;
  }

  async insertMessage(message: ChatMessage): Promise<void> {
    const columns = toMessageColumns(message);
    await this.pool.query(
      `INSERT INTO messages (${messageColumns}) VALUES (${messageFields.map((_, index) => `$${index + 1}`).join(', ')})`,
      messageFields.map((field) => columns[field]),
    );
  }

  async getMessage(id: string): Promise<ChatMessage | undefined> {
    const { rows } = await this.pool.query<MessageColumns>(`SELECT ${messageColumns} FROM messages WHERE id = $1`, [
      id,
    ]);
    return rows[0] && toMessage(rows[0]);
  }

  async listMessages(conversationId: string): Promise<ChatMessage[]> {
    const { rows } = await this.pool.query<MessageColumns>(
      `SELECT ${messageColumns} FROM messages WHERE conversation_id = $1 ORDER BY created_at, insert_order`,
      [conversationId],
    );
    return rows.map(toMessage);
  }

  async deleteMessages(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const { rowCount } = await this.pool.query('DELETE FROM messages WHERE id = ANY($1::text[])', [[...ids]]);
    return rowCount ?? 0;
  }

  async updateMessage(id: string, changes: MessageChanges): Promise<ChatMessage | undefined> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<MessageColumns>(
        `SELECT ${messageColumns} FROM messages WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (!rows[0]) {
        await client.query('COMMIT');
        return undefined;
      }
      const next: ChatMessage = { ...toMessage(rows[0]), ...definedOnly(changes) };
      const columns = toMessageColumns(next);
      await client.query(
        `UPDATE messages SET content = $2, tool_calls = $3, reasoning = $4, reasoning_details = $5, usage = $6,
           cost = $7, status = $8, error = $9, search_text = $10, chosen_order = $11 WHERE id = $1`,
        [
          id,
          columns.content,
          columns.tool_calls,
          columns.reasoning,
          columns.reasoning_details,
          columns.usage,
          columns.cost,
          columns.status,
          columns.error,
          columns.search_text,
          columns.chosen_order,
        ],
      );
      await client.query('COMMIT');
      return next;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

/** SQLite reads a negative LIMIT as "no limit". */
function sqlLimit(limit: number): number | null {
  return limit < 0 ? null : limit;
}

function foldAsciiText(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** The two parameters of a `CASE WHEN $changed THEN $value` column: whether the change sets it, and to what. */
function change(value: unknown, bound: unknown = value ?? null): [boolean, unknown] {
  return [value !== undefined, bound];
}
