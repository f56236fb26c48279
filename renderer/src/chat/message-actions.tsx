// What can be done with one message, as in every chat app: copy it; for a reply, regenerate it (with the same
// model or another); for a message of the user's, edit it and send it again; delete either with what follows it
// (a second click confirms, and says so); step through its versions (version-switcher.tsx). Changing the history
// waits while the conversation is answering.

import { useState, type FormEvent } from 'react';
import type { ModelOption } from '../../../shared/bridge/types.js';
import { CopyIcon, PencilIcon, RegenerateIcon, TrashIcon } from '../shell/icons.js';
import { CopyButton } from '../ui/copy-button.js';
import { IconButton } from '../ui/icon-button.js';
import { VersionSwitcher } from './version-switcher.js';

/** The versions of a message, for its switcher. */
export interface MessageVersions {
  /** All of them, oldest first. */
  ids: string[];
  current: string;
  onShow(messageId: string): void;
}

interface DeleteMessageButtonProps {
  what: string;
  /** Messages follow this one: they go with it, and the confirmation says so. */
  followed: boolean;
  disabled: boolean;
  onDelete(): void;
}

function DeleteMessageButton({ what, followed, disabled, onDelete }: DeleteMessageButtonProps) {
  const [confirming, setConfirming] = useState(false);
  const whole = followed ? `${what} and everything after it` : what;
  return (
    <button
      type="button"
      className={confirming ? 'icon-button danger confirming' : 'icon-button'}
      aria-label={confirming ? `Confirm delete ${whole}` : `Delete ${whole}`}
      title={confirming ? 'Click again to delete' : `Delete ${whole}`}
      disabled={disabled}
      onClick={() => (confirming ? onDelete() : setConfirming(true))}
      onBlur={() => setConfirming(false)}
    >
      <TrashIcon />
      {confirming ? <span>{followed ? 'Delete with all after it?' : 'Delete?'}</span> : null}
    </button>
  );
}

interface ReplyActionsProps {
  text: string;
  models: ModelOption[] | null;
  /** The conversation is answering: the history cannot change now. */
  busy: boolean;
  /**
   * A new version can be written now (default: when not busy). Also while the turn only waits for a tool call's
   * approval: main stops it, and the call is answered as stopped in the version it belongs to.
   */
  branchable?: boolean;
  versions?: MessageVersions;
  /** Messages follow this one (deleting it deletes them). */
  followed?: boolean;
  onRegenerate(model?: string): void;
  onDelete(): void;
}

export function ReplyActions(props: ReplyActionsProps) {
  const { text, models, busy, versions, onRegenerate, onDelete } = props;
  const branchable = props.branchable ?? !busy;
  return (
    <>
      {versions ? (
        <VersionSwitcher
          what="reply"
          versions={versions.ids}
          current={versions.current}
          busy={busy}
          onShow={versions.onShow}
        />
      ) : null}
      <div className="message-actions" role="group" aria-label="Reply actions">
        {text !== '' ? <CopyButton text={text} what="reply" icon={<CopyIcon />} /> : null}
        <IconButton label="Regenerate reply" title="Regenerate" disabled={!branchable} onClick={() => onRegenerate()}>
          <RegenerateIcon />
        </IconButton>
        <select
          className="regenerate-with"
          aria-label="Regenerate with another model"
          value=""
          disabled={!branchable || !models || models.length === 0}
          onChange={(event) => {
            if (event.target.value) onRegenerate(event.target.value);
          }}
        >
          <option value="">Regenerate with…</option>
          {(models ?? []).map((option) => (
            <option key={option.id} value={option.id}>
              {option.id}
            </option>
          ))}
        </select>
        <DeleteMessageButton what="reply" followed={props.followed ?? false} disabled={busy} onDelete={onDelete} />
      </div>
    </>
  );
}

interface UserActionsProps {
  text: string;
  busy: boolean;
  /** As ReplyActions' branchable: editing writes a new version. */
  branchable?: boolean;
  versions?: MessageVersions;
  /** Messages follow this one (deleting it deletes them). */
  followed?: boolean;
  onEdit(): void;
  onDelete(): void;
}

export function UserActions({ versions, ...props }: UserActionsProps) {
  if (!versions) return <UserActionButtons {...props} />;
  return (
    <div className="message-toolbar">
      <VersionSwitcher
        what="message"
        versions={versions.ids}
        current={versions.current}
        busy={props.busy}
        onShow={versions.onShow}
      />
      <UserActionButtons {...props} />
    </div>
  );
}

function UserActionButtons(props: Omit<UserActionsProps, 'versions'>) {
  const { text, busy, followed, onEdit, onDelete } = props;
  return (
    <div className="message-actions" role="group" aria-label="Message actions">
      {text !== '' ? <CopyButton text={text} what="message" icon={<CopyIcon />} /> : null}
      <IconButton
        label="Edit message"
        title="Edit and send again"
        disabled={!(props.branchable ?? !busy)}
        onClick={onEdit}
      >
        <PencilIcon />
      </IconButton>
      <DeleteMessageButton what="message" followed={followed ?? false} disabled={busy} onDelete={onDelete} />
    </div>
  );
}

interface EditMessageFormProps {
  initialText: string;
  busy: boolean;
  /** Resolves true when the edit was taken (the form closes then). */
  onSend(text: string): Promise<boolean>;
  onCancel(): void;
}

/** The user's message in place, editable: Ctrl/Cmd+Enter or Send sends it again, Escape cancels. */
export function EditMessageForm({ initialText, busy, onSend, onCancel }: EditMessageFormProps) {
  const [text, setText] = useState(initialText);
  const [sending, setSending] = useState(false);
  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy || sending || text.trim() === '') return;
    setSending(true);
    const taken = await onSend(text);
    setSending(false);
    if (taken) onCancel();
  }
  return (
    <form className="edit-message" onSubmit={(event) => void submit(event)}>
      <textarea
        aria-label="Edit message"
        value={text}
        rows={Math.min(12, Math.max(3, text.split('\n').length))}
        autoFocus
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onCancel();
          }
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit(event);
        }}
      />
      <div className="edit-message-buttons">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy || sending || text.trim() === ''}>
          Send
        </button>
      </div>
    </form>
  );
}
