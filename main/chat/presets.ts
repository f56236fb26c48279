// Presets: named settings and a model that a new chat starts from in one click; one of them may be the default
// for every new chat. Saving with an id replaces that preset (a rename, new settings, becoming the default).

import { randomUUID } from 'node:crypto';
import type { ChatPreset, ChatSettings } from '../../shared/bridge/types.js';
import type { ChatLibraryStore } from '../store/index.js';
import { ChatError } from './chat-error.js';
import { settingsOf } from './chat-settings.js';

/** A preset as the UI sends it: the settings left out are the model's defaults. */
export type PresetFields = Pick<ChatPreset, 'name' | 'model'> &
  Partial<{ [Setting in keyof ChatSettings]: ChatSettings[Setting] | null }> & {
    id?: string;
    isDefault?: boolean;
  };

export class ChatPresets {
  constructor(
    private readonly library: ChatLibraryStore,
    private readonly now: () => number,
  ) {}

  list(): Promise<ChatPreset[]> {
    return this.library.listPresets();
  }

  /** Without an id, a new preset; with one, that preset replaced (an unknown id is an error, not a new preset). */
  async save(fields: PresetFields): Promise<ChatPreset> {
    const existing = fields.id === undefined ? undefined : await this.library.getPreset(fields.id);
    if (fields.id !== undefined && !existing) throw new ChatError('not-found', `There is no preset "${fields.id}".`);
    const now = this.now();
    const preset: ChatPreset = {
      id: existing?.id ?? randomUUID(),
      name: fields.name.trim(),
      model: fields.model,
      ...settingsOf(fields),
      isDefault: fields.isDefault ?? existing?.isDefault ?? false,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    await this.library.savePreset(preset);
    return preset;
  }

  delete(id: string): Promise<boolean> {
    return this.library.deletePreset(id);
  }
}
