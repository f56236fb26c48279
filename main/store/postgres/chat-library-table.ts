// The chat's presets and folders, and where a conversation is listed, in PostgreSQL's dialect: what the SQLite
// engine's ChatLibraryTable answers (../sqlite/chat-library-table.ts), with schema version 12 written for this engine.

import type pg from 'pg';
import type { ChatFolder, ChatPreset } from '../../../shared/bridge/types.js';
import { presetFields, toPreset, toPresetColumns } from '../contract/chat-library.js';
import type { ConversationPlace, PresetColumns } from '../contract/chat-library.js';
import type { ChatLibraryStore } from '../contract/store-interface.js';

export const chatLibrarySchema = `
  ALTER TABLE conversations ADD COLUMN max_tokens bigint;
  ALTER TABLE conversations ADD COLUMN top_p double precision;
  ALTER TABLE conversations ADD COLUMN seed bigint;
  ALTER TABLE conversations ADD COLUMN stop text;
  ALTER TABLE conversations ADD COLUMN reasoning_effort text;
  ALTER TABLE conversations ADD COLUMN pinned boolean NOT NULL DEFAULT false;

  CREATE TABLE chat_folders (
    id text PRIMARY KEY,
    name text NOT NULL,
    created_at bigint NOT NULL
  );
  ALTER TABLE conversations ADD COLUMN folder_id text REFERENCES chat_folders (id) ON DELETE SET NULL;

  CREATE TABLE chat_presets (
    id text PRIMARY KEY,
    name text NOT NULL,
    model text,
    system_prompt text NOT NULL,
    temperature double precision,
    max_tokens bigint,
    top_p double precision,
    seed bigint,
    stop text,
    reasoning_effort text,
    is_default boolean NOT NULL DEFAULT false,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
  );
`;

const presetColumns = presetFields.join(', ');
const folderColumns = 'id, name, created_at AS "createdAt"';

export class PostgresChatLibraryTable implements ChatLibraryStore {
  constructor(private readonly pool: pg.Pool) {}

  async listPresets(): Promise<ChatPreset[]> {
    const { rows } = await this.pool.query<PresetColumns>(
      `SELECT ${presetColumns} FROM chat_presets ORDER BY lower(name), id`,
    );
    return rows.map(toPreset);
  }

  async getPreset(id: string): Promise<ChatPreset | undefined> {
    const { rows } = await this.pool.query<PresetColumns>(`SELECT ${presetColumns} FROM chat_presets WHERE id = $1`, [
      id,
    ]);
    return rows[0] && toPreset(rows[0]);
  }

  async savePreset(preset: ChatPreset): Promise<void> {
    const columns = toPresetColumns(preset);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      if (preset.isDefault)
        await client.query('UPDATE chat_presets SET is_default = false WHERE id <> $1', [preset.id]);
      await client.query(
        `INSERT INTO chat_presets (${presetColumns})
         VALUES (${presetFields.map((_, index) => `$${index + 1}`).join(', ')})
         ON CONFLICT (id) DO UPDATE SET ${presetFields
           .filter((field) => field !== 'id' && field !== 'created_at')
           .map((field) => `${field} = excluded.${field}`)
           .join(', ')}`,
        presetFields.map((field) => columns[field]),
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async deletePreset(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM chat_presets WHERE id = $1', [id]);
    return (rowCount ?? 0) > 0;
  }

  async listFolders(): Promise<ChatFolder[]> {
    const { rows } = await this.pool.query<ChatFolder>(
      `SELECT ${folderColumns} FROM chat_folders ORDER BY lower(name), id`,
    );
    return rows;
  }

  async getFolder(id: string): Promise<ChatFolder | undefined> {
    const { rows } = await this.pool.query<ChatFolder>(`SELECT ${folderColumns} FROM chat_folders WHERE id = $1`, [id]);
    return rows[0];
  }

  async saveFolder(folder: ChatFolder): Promise<void> {
    await this.pool.query(
      `INSERT INTO chat_folders (id, name, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
      [folder.id, folder.name, folder.createdAt],
    );
  }

  async deleteFolder(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM chat_folders WHERE id = $1', [id]);
    return (rowCount ?? 0) > 0;
  }

  async placeConversation(id: string, place: ConversationPlace): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE conversations SET pinned = coalesce($2, pinned),
         folder_id = CASE WHEN $3 THEN $4 ELSE folder_id END
       WHERE id = $1`,
      [id, place.pinned ?? null, place.folderId !== undefined, place.folderId ?? null],
    );
    return (rowCount ?? 0) > 0;
  }
}
