// Folders in the conversation list: each a collapsible group with its conversations, renamed or deleted from its
// heading (deleting one keeps its conversations: they return to the list). Which folders are folded is
// remembered on this device.

import { useCallback, useState, type DragEvent, type FormEvent, type ReactNode } from 'react';
import type { ChatFolder } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge, useBridgeEvent } from '../bridge/bridge-context.js';
import { PencilIcon, TrashIcon } from '../shell/icons.js';
import { IconButton } from '../ui/icon-button.js';
import { useLoad } from '../ui/use-load.js';
import { useConfirmDelete } from './confirm-delete.js';

const foldedKey = 'switchyard.chat.folded-folders';

/** What a dragged conversation carries: its id. */
export const conversationDragType = 'application/x-switchyard-conversation';

/**
 * A group a conversation can be dropped on (a folder, Pinned, the rest): `onDrop` gets its id; `active` while one
 * is held over it, for the highlight.
 */
export function useConversationDrop(onDrop: (conversationId: string) => void) {
  const [active, setActive] = useState(false);
  const carries = (event: DragEvent) => event.dataTransfer.types.includes(conversationDragType);
  return {
    active,
    handlers: {
      onDragOver(event: DragEvent) {
        if (!carries(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        setActive(true);
      },
      onDragLeave(event: DragEvent) {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setActive(false);
      },
      onDrop(event: DragEvent) {
        if (!carries(event)) return;
        event.preventDefault();
        setActive(false);
        const id = event.dataTransfer.getData(conversationDragType);
        if (id) onDrop(id);
      },
    },
  };
}

/** The folders, by name, with what changes them; errors go to `onError`. */
export function useFolders(onError: (message: string) => void) {
  const bridge = useBridge();
  const loaded = useLoad(useCallback(() => bridge.invoke('chat:list-folders', {}), [bridge]));
  const { reload } = loaded;
  // A conversation moved to a folder made elsewhere (another window) finds it listed.
  useBridgeEvent('chat:conversations-changed', () => void reload());
  const run = (work: Promise<unknown>) => void work.then(reload, (error: unknown) => onError(errorMessage(error)));
  return {
    folders: loaded.data?.folders ?? [],
    error: loaded.error,
    create: (name: string) => run(bridge.invoke('chat:save-folder', { name })),
    rename: (id: string, name: string) => run(bridge.invoke('chat:save-folder', { id, name })),
    remove: (id: string) => run(bridge.invoke('chat:delete-folder', { id })),
  };
}

/** Which folders are folded, kept in localStorage. */
export function useFoldedFolders() {
  const [folded, setFolded] = useState<string[]>(() => {
    try {
      const stored: unknown = JSON.parse(localStorage.getItem(foldedKey) ?? '[]');
      return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      return [];
    }
  });
  const toggle = (id: string) => {
    const next = folded.includes(id) ? folded.filter((each) => each !== id) : [...folded, id];
    setFolded(next);
    localStorage.setItem(foldedKey, JSON.stringify(next));
  };
  return { isFolded: (id: string) => folded.includes(id), toggle };
}

/** A name typed in place: Enter keeps it, Escape or an empty name gives up. */
export function NameInput(props: { label: string; initial: string; onDone(name: string | null): void }) {
  const [name, setName] = useState(props.initial);
  const finish = (event?: FormEvent) => {
    event?.preventDefault();
    props.onDone(name.trim() === '' || name.trim() === props.initial ? null : name.trim());
  };
  return (
    <form className="folder-name-form" onSubmit={finish}>
      <input
        aria-label={props.label}
        value={name}
        maxLength={100}
        autoFocus
        onChange={(event) => setName(event.target.value)}
        onBlur={() => finish()}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            props.onDone(null);
          }
        }}
      />
    </form>
  );
}

interface FolderGroupProps {
  folder: ChatFolder;
  count: number;
  folded: boolean;
  onToggle(): void;
  onRename(name: string): void;
  onDelete(): void;
  /** A conversation was dropped on it. */
  onDropConversation(conversationId: string): void;
  children: ReactNode;
}

export function FolderGroup(props: FolderGroupProps) {
  const { folder, count, folded, onToggle, onRename, onDelete, children } = props;
  const drop = useConversationDrop(props.onDropConversation);
  const [editing, setEditing] = useState(false);
  const deletion = useConfirmDelete(
    'Delete folder',
    `Delete the folder “${folder.name}”? Its conversations stay, out of any folder.`,
    onDelete,
  );
  const listId = `folder-${folder.id}`;
  return (
    <section
      className={drop.active ? 'conversation-group folder-group drop-target' : 'conversation-group folder-group'}
      aria-label={`Folder ${folder.name}`}
      {...drop.handlers}
    >
      <div className="folder-heading">
        {editing ? (
          <NameInput
            label="Folder name"
            initial={folder.name}
            onDone={(name) => {
              setEditing(false);
              if (name) onRename(name);
            }}
          />
        ) : (
          <h2>
            <button
              type="button"
              className="folder-toggle"
              aria-expanded={!folded}
              aria-controls={listId}
              onClick={onToggle}
            >
              <span className="folder-chevron" aria-hidden="true">
                {folded ? '▸' : '▾'}
              </span>
              {folder.name}
              <span className="folder-count">{count}</span>
            </button>
          </h2>
        )}
        <div className="conversation-actions">
          <IconButton label={`Rename folder ${folder.name}`} onClick={() => setEditing(true)}>
            <PencilIcon />
          </IconButton>
          <IconButton label={`Delete folder ${folder.name}`} onClick={deletion.ask}>
            <TrashIcon />
          </IconButton>
        </div>
      </div>
      <ul id={listId} hidden={folded}>
        {children}
        {count === 0 ? <li className="conversation-empty">No conversations here yet.</li> : null}
      </ul>
      {deletion.dialog}
    </section>
  );
}
