// Presets: a system prompt, a model and the settings, under a name, for a new chat to start from in one click.
// The chips sit in an empty chat; "Save as preset" keeps the current settings; the manager renames, deletes and
// picks the default that every new chat starts from.

import { useCallback, useId, useState, type FormEvent } from 'react';
import type { ChatPreset, ChatSettings } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog, FormActions } from '../ui/dialog.js';
import { ErrorNotice, Field } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';

export function presetSettings(preset: ChatPreset): ChatSettings {
  const { systemPrompt, temperature, maxTokens, topP, seed, stop, reasoningEffort } = preset;
  return { systemPrompt, temperature, maxTokens, topP, seed, stop, reasoningEffort };
}

/** The stored presets, by name (null while loading); `reload` after a change. */
export function usePresets() {
  const bridge = useBridge();
  const loaded = useLoad(useCallback(() => bridge.invoke('chat:list-presets', {}), [bridge]));
  return { presets: loaded.data?.presets ?? (loaded.error ? [] : null), error: loaded.error, reload: loaded.reload };
}

interface PresetChipsProps {
  presets: ChatPreset[];
  onChoose(preset: ChatPreset): void;
  onManage(): void;
}

/** One click starts the empty chat from a preset. */
export function PresetChips({ presets, onChoose, onManage }: PresetChipsProps) {
  return (
    <div className="preset-chips" role="group" aria-label="Start from a preset">
      <span className="preset-chips-label">Start from a preset</span>
      {presets.map((preset) => (
        <button
          key={preset.id}
          type="button"
          className="preset-chip"
          title={preset.model ? `${preset.name}: ${preset.model}` : preset.name}
          onClick={() => onChoose(preset)}
        >
          {preset.name}
          {preset.isDefault ? <span className="preset-default"> · default</span> : null}
        </button>
      ))}
      <button type="button" className="link-button" onClick={onManage}>
        Manage presets
      </button>
    </div>
  );
}

interface SavePresetDialogProps {
  settings: ChatSettings;
  model: string | null;
  onSaved(preset: ChatPreset): void;
  onClose(): void;
}

export function SavePresetDialog({ settings, model, onSaved, onClose }: SavePresetDialogProps) {
  const bridge = useBridge();
  const [name, setName] = useState('');
  const [isDefault, setIsDefault] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return setError('A preset needs a name.');
    setBusy(true);
    try {
      const { preset } = await bridge.invoke('chat:save-preset', { name, model, ...settings, isDefault });
      onSaved(preset);
    } catch (caught) {
      setError(errorMessage(caught));
      setBusy(false);
    }
  };
  return (
    <Dialog
      title="Save as preset"
      onClose={onClose}
      description={`This chat's system prompt and settings${model ? `, with ${model}` : ''}, under a name.`}
    >
      <form onSubmit={(event) => void submit(event)}>
        <Field label="Name">
          {(props) => (
            <input {...props} value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
          )}
        </Field>
        <label className="checkbox">
          <input type="checkbox" checked={isDefault} onChange={(event) => setIsDefault(event.target.checked)} />
          Start every new chat from it
        </label>
        <FormActions submitLabel="Save preset" onCancel={onClose} error={error} busy={busy} />
      </form>
    </Dialog>
  );
}

interface PresetsDialogProps {
  presets: ChatPreset[];
  /** The open chat's settings and model, which a preset can be updated to. */
  current: { settings: ChatSettings; model: string | null };
  onChanged(): void;
  onClose(): void;
}

/** Rename, update to the open chat's settings, delete, and choose the default (or none). */
export function PresetsDialog({ presets, current, onChanged, onClose }: PresetsDialogProps) {
  const bridge = useBridge();
  const [error, setError] = useState<string | null>(null);
  const change = async (work: () => Promise<unknown>) => {
    try {
      await work();
      setError(null);
    } catch (caught) {
      setError(errorMessage(caught));
    }
    onChanged();
  };
  const save = (preset: ChatPreset, changes: Partial<ChatPreset>) =>
    change(() => {
      const { createdAt: _created, updatedAt: _updated, ...fields } = { ...preset, ...changes };
      return bridge.invoke('chat:save-preset', fields);
    });
  return (
    <Dialog title="Presets" onClose={onClose} wide>
      {presets.length === 0 ? (
        <p className="dialog-description">
          No presets yet. Open a chat's settings, set them up, and choose “Save as preset…”.
        </p>
      ) : (
        <ul className="preset-rows">
          {presets.map((preset) => (
            <PresetRow
              key={preset.id}
              preset={preset}
              onRename={(name) => void save(preset, { name })}
              onDefault={(isDefault) => void save(preset, { isDefault })}
              onUpdate={() => void save(preset, { ...current.settings, model: current.model ?? preset.model })}
              onDelete={() => void change(() => bridge.invoke('chat:delete-preset', { id: preset.id }))}
            />
          ))}
        </ul>
      )}
      <ErrorNotice message={error} />
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

interface PresetRowProps {
  preset: ChatPreset;
  onRename(name: string): void;
  onDefault(isDefault: boolean): void;
  onUpdate(): void;
  onDelete(): void;
}

function PresetRow({ preset, onRename, onDefault, onUpdate, onDelete }: PresetRowProps) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(preset.name);
  const [confirming, setConfirming] = useState(false);
  const nameId = useId();
  const rename = (event: FormEvent) => {
    event.preventDefault();
    setEditing(false);
    if (name.trim() !== '' && name.trim() !== preset.name) onRename(name.trim());
    else setName(preset.name);
  };
  return (
    <li className="preset-row">
      {editing ? (
        <form className="preset-rename" onSubmit={rename}>
          <input
            aria-label={`New name for ${preset.name}`}
            value={name}
            maxLength={100}
            autoFocus
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit" className="primary">
            Save
          </button>
        </form>
      ) : (
        <span className="preset-name" id={nameId}>
          <strong>{preset.name}</strong>
          <small>{preset.model ?? 'any model'}</small>
        </span>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          aria-describedby={nameId}
          checked={preset.isDefault}
          onChange={(event) => onDefault(event.target.checked)}
        />
        Default for new chats
      </label>
      {confirming ? (
        <span className="preset-confirm" role="group" aria-label={`Delete ${preset.name}?`}>
          <span>Delete “{preset.name}”?</span>
          <button type="button" className="danger-solid" onClick={onDelete}>
            Delete
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </span>
      ) : (
        <span className="preset-row-actions">
          <button type="button" aria-label={`Rename ${preset.name}`} onClick={() => setEditing(true)}>
            Rename
          </button>
          <button
            type="button"
            aria-label={`Update to this chat: ${preset.name}`}
            title="Give it this chat's system prompt, settings and model"
            onClick={onUpdate}
          >
            Update to this chat
          </button>
          <button type="button" aria-label={`Delete ${preset.name}`} onClick={() => setConfirming(true)}>
            Delete
          </button>
        </span>
      )}
    </li>
  );
}
