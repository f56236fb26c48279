// SQL for what the chat keeps beside its conversations (schema version 12): the settings columns of a
// conversation, whether it is pinned and which folder it is in, the folders, and the presets a new chat can start
// from. A folder's deletion leaves its conversations where they were, out of any folder (ON DELETE SET NULL).

import type { Database, Statement } from 'better-sqlite3';
import type { ChatFolder, ChatPreset } from '../../../shared/bridge/types.js';
import { presetFields, toPreset, toPresetColumns } from '../contract/chat-library.js';
import type { ConversationPlace, PresetColumns } from '../contract/chat-library.js';

export const chatLibrarySchema = `
  ALTER TABLE conversations ADD COLUMN max_tokens INTEGER;
  ALTER TABLE conversations ADD COLUMN top_p REAL;
  ALTER TABLE conversations ADD COLUMN seed INTEGER;
  ALTER TABLE conversations ADD COLUMN stop TEXT;
  ALTER TABLE conversations ADD COLUMN reasoning_effort TEXT;
  ALTER TABLE conversations ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;

  CREATE TABLE chat_folders (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  ALTER TABLE conversations ADD COLUMN folder_id TEXT REFERENCES chat_folders (id) ON DELETE SET NULL;

  CREATE TABLE chat_presets (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    model TEXT,
    system_prompt TEXT NOT NULL,
    temperature REAL,
    max_tokens INTEGER,
    top_p REAL,
    seed INTEGER,
    stop TEXT,
    reasoning_effort TEXT,
    is_default INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
`;

export class ChatLibraryTable {
  private readonly listPresetsStatement: Statement<[], PresetColumns>;
  private readonly getPresetStatement: Statement<[string], PresetColumns>;
  private readonly savePresetTransaction: (columns: PresetColumns) => void;
  private readonly deletePresetStatement: Statement<[string]>;
  private readonly listFoldersStatement: Statement<[], { id: string; name: string; createdAt: number }>;
  private readonly getFolderStatement: Statement<[string], ChatFolder>;
  private readonly saveFolderStatement: Statement<[ChatFolder]>;
  private readonly deleteFolderStatement: Statement<[string]>;
  private readonly placeStatement: Statement<
    [{ id: string; pinned: number | null; folderId: string | null; moveFolder: number }]
  >;

  constructor(db: Database) {
    const columns = presetFields.join(', ');
    this.listPresetsStatement = db.prepare(`SELECT ${columns} FROM chat_presets ORDER BY name COLLATE NOCASE, id`);
    this.getPresetStatement = db.prepare(`SELECT ${columns} FROM chat_presets WHERE id = ?`);
    const upsert = db.prepare<[PresetColumns]>(
      `INSERT INTO chat_presets (${columns}) VALUES (${presetFields.map((field) => `@${field}`).join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${presetFields
         .filter((field) => field !== 'id' && field !== 'created_at')
         .map((field) => `${field} = excluded.${field}`)
         .join(', ')}`,
    );
    const clearDefault = db.prepare<[string]>('UPDATE chat_presets SET is_default = 0 WHERE id <> ?');
    this.savePresetTransaction = db.transaction((preset: PresetColumns) => {
      if (preset.is_default) clearDefault.run(preset.id);
      upsert.run(preset);
    });
    this.deletePresetStatement = db.prepare('DELETE FROM chat_presets WHERE id = ?');
    this.listFoldersStatement = db.prepare(
      'SELECT id, name, created_at AS createdAt FROM chat_folders ORDER BY name COLLATE NOCASE, id',
    );
    this.getFolderStatement = db.prepare('SELECT id, name, created_at AS createdAt FROM chat_folders WHERE id = ?');
    this.saveFolderStatement = db.prepare(
      `INSERT INTO chat_folders (id, name, created_at) VALUES (@id, @name, @createdAt)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
    );
    this.deleteFolderStatement = db.prepare('DELETE FROM chat_folders WHERE id = ?');
    this.placeStatement = db.prepare(
      `UPDATE conversations SET pinned = coalesce(@pinned, pinned),
         folder_id = CASE WHEN @moveFolder THEN @folderId ELSE folder_id END
       WHERE id = @id`,
    );
  }

  /** By name. */
  listPresets(): ChatPreset[] {
    return this.listPresetsStatement.all().map(toPreset);
  }

  getPreset(id: string): ChatPreset | undefined {
    const columns = this.getPresetStatement.get(id);
    return columns && toPreset(columns);
  }

  /** Adds it or replaces the one with its id (keeping its created_at); a default one is then the only default. */
  savePreset(preset: ChatPreset): void {
    this.savePresetTransaction({ ...toPresetColumns(preset), is_default: preset.isDefault ? 1 : 0 });
  }

  deletePreset(id: string): boolean {
    return this.deletePresetStatement.run(id).changes > 0;
  }

  /** By name. */
  listFolders(): ChatFolder[] {
    return this.listFoldersStatement.all();
  }

  getFolder(id: string): ChatFolder | undefined {
    return this.getFolderStatement.get(id);
  }

  /** Adds it, or renames the folder with its id. */
  saveFolder(folder: ChatFolder): void {
    this.saveFolderStatement.run(folder);
  }

  deleteFolder(id: string): boolean {
    return this.deleteFolderStatement.run(id).changes > 0;
  }

  /** Pins or unpins it, moves it into a folder or out; its updated_at stays. False: no such conversation. */
  placeConversation(id: string, place: ConversationPlace): boolean {
    return (
      this.placeStatement.run({
        id,
        pinned: place.pinned === undefined ? null : place.pinned ? 1 : 0,
        folderId: place.folderId ?? null,
        moveFolder: place.folderId === undefined ? 0 : 1,
      }).changes > 0
    );
  }
}
