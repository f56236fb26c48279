// The conversations, newest first, with search (titles and message text): pinned ones first under "Pinned", then
// each folder (collapsible), then the rest. Each conversation can be renamed, pinned, moved to a folder or out of
// it (from its menu, or dragged onto a group), and deleted after a question in words.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChatFolder, Conversation } from '../../../shared/bridge/types.js';
import { PencilIcon, PlusIcon, TrashIcon } from '../shell/icons.js';
import { IconButton } from '../ui/icon-button.js';
import { useChanged } from '../ui/use-changed.js';
import { useConfirmDelete } from './confirm-delete.js';
import {
  conversationDragType,
  FolderGroup,
  NameInput,
  useConversationDrop,
  useFoldedFolders,
  useFolders,
} from './conversation-folders.js';
import { ImportConversationButton } from './import-conversation.js';

/** Where a conversation is listed (main keeps it; a change does not move it in time). */
export interface ConversationPlaceChange {
  pinned?: boolean;
  folderId?: string | null;
}

interface ConversationListProps {
  /** Folded away (the chat screen's toggle). */
  hidden: boolean;
  conversations: Conversation[];
  selectedId: string | null;
  query: string;
  onQueryChange(query: string): void;
  onSelect(id: string): void;
  onCreate(): void;
  onRename(id: string, title: string): void;
  onDelete(id: string): void;
  onPlace(id: string, place: ConversationPlaceChange): void;
  onError(message: string): void;
}

export const conversationListId = 'conversation-list';

export function ConversationList(props: ConversationListProps) {
  const { conversations, selectedId } = props;
  const folders = useFolders(props.onError);
  const folded = useFoldedFolders();
  const [naming, setNaming] = useState(false);
  // The conversation just moved (pinned, filed) keeps the keyboard on its menu button, in the group it went to.
  const [moved, setMoved] = useState<string | null>(null);
  const known = new Set(folders.folders.map((folder) => folder.id));
  const pinned = conversations.filter((conversation) => conversation.pinned);
  const inFolder = (id: string) =>
    conversations.filter((conversation) => !conversation.pinned && conversation.folderId === id);
  const loose = conversations.filter(
    (conversation) => !conversation.pinned && !(conversation.folderId && known.has(conversation.folderId)),
  );
  const place = (id: string, change: ConversationPlaceChange) => {
    setMoved(id);
    props.onPlace(id, change);
  };
  // Dropped on Pinned: pinned. On the rest: unpinned and out of its folder.
  const pinDrop = useConversationDrop((id) => place(id, { pinned: true }));
  const looseDrop = useConversationDrop((id) => place(id, { pinned: false, folderId: null }));
  const item = (conversation: Conversation) => (
    <ConversationItem
      key={conversation.id}
      conversation={conversation}
      folders={folders.folders}
      selected={conversation.id === selectedId}
      refocus={conversation.id === moved}
      onSelect={() => props.onSelect(conversation.id)}
      onRename={(title) => props.onRename(conversation.id, title)}
      onDelete={() => props.onDelete(conversation.id)}
      onPlace={(change) => place(conversation.id, change)}
    />
  );
  const grouped = pinned.length > 0 || folders.folders.length > 0;

  return (
    <aside id={conversationListId} className="conversation-list" aria-label="Conversations" hidden={props.hidden}>
      <div className="conversation-list-top">
        <button type="button" className="new-chat primary" onClick={props.onCreate}>
          <PlusIcon />
          New chat
        </button>
        <input
          type="search"
          aria-label="Search conversations"
          placeholder="Search"
          value={props.query}
          onChange={(event) => props.onQueryChange(event.target.value)}
        />
        <ImportConversationButton onImported={props.onSelect} />
      </div>
      <div className="conversation-groups">
        {pinned.length > 0 ? (
          <section
            className={pinDrop.active ? 'conversation-group drop-target' : 'conversation-group'}
            aria-label="Pinned"
            {...pinDrop.handlers}
          >
            <h2 className="group-heading">Pinned</h2>
            <ul>{pinned.map(item)}</ul>
          </section>
        ) : null}
        {folders.folders.map((folder) => (
          <FolderGroup
            key={folder.id}
            folder={folder}
            count={inFolder(folder.id).length}
            folded={folded.isFolded(folder.id)}
            onToggle={() => folded.toggle(folder.id)}
            onRename={(name) => folders.rename(folder.id, name)}
            onDelete={() => folders.remove(folder.id)}
            onDropConversation={(id) => place(id, { pinned: false, folderId: folder.id })}
          >
            {inFolder(folder.id).map(item)}
          </FolderGroup>
        ))}
        <section
          className={looseDrop.active ? 'conversation-group drop-target' : 'conversation-group'}
          aria-label={grouped ? 'Other conversations' : undefined}
          {...looseDrop.handlers}
        >
          {grouped ? <h2 className="group-heading">Chats</h2> : null}
          <ul>
            {loose.map(item)}
            {conversations.length === 0 ? (
              <li className="conversation-empty">{props.query ? 'Nothing matches.' : 'No conversations yet.'}</li>
            ) : null}
          </ul>
        </section>
        <div className="new-folder">
          {naming ? (
            <NameInput
              label="New folder name"
              initial=""
              onDone={(name) => {
                setNaming(false);
                if (name) folders.create(name);
              }}
            />
          ) : (
            <button type="button" className="link-button" onClick={() => setNaming(true)}>
              <PlusIcon /> New folder
            </button>
          )}
        </div>
      </div>
    </aside>
  );
}

interface ConversationItemProps {
  conversation: Conversation;
  folders: ChatFolder[];
  selected: boolean;
  /** Focus its menu button (it was just moved from it). */
  refocus: boolean;
  onSelect(): void;
  onRename(title: string): void;
  onDelete(): void;
  onPlace(place: ConversationPlaceChange): void;
}

function ConversationItem({
  conversation,
  folders,
  selected,
  refocus,
  onSelect,
  onRename,
  onDelete,
  onPlace,
}: ConversationItemProps) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const deletion = useConfirmDelete(
    'Delete conversation',
    `Delete “${conversation.title}”? Its messages are deleted too.`,
    onDelete,
  );
  const [menuOpen, setMenuOpen] = useState(false);
  if (useChanged(conversation.title)) setTitle(conversation.title);
  const moreButton = useRef<HTMLButtonElement>(null);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  useEffect(() => {
    if (refocus) moreButton.current?.focus();
  }, [refocus]);

  const save = () => {
    setEditing(false);
    if (title.trim() !== '' && title.trim() !== conversation.title) onRename(title.trim());
    else setTitle(conversation.title);
  };
  const menuId = `conversation-menu-${conversation.id}`;

  return (
    <li
      className={selected ? 'conversation selected' : 'conversation'}
      draggable={!editing}
      onDragStart={(event) => {
        event.dataTransfer.setData(conversationDragType, conversation.id);
        event.dataTransfer.effectAllowed = 'move';
      }}
    >
      <div className="conversation-row">
        {editing ? (
          <input
            aria-label="Conversation title"
            value={title}
            autoFocus
            onChange={(event) => setTitle(event.target.value)}
            onBlur={save}
            onKeyDown={(event) => {
              if (event.key === 'Enter') save();
              if (event.key === 'Escape') {
                setTitle(conversation.title);
                setEditing(false);
              }
            }}
          />
        ) : (
          <button type="button" className="conversation-title" aria-current={selected || undefined} onClick={onSelect}>
            {conversation.title}
          </button>
        )}
        <div className="conversation-actions">
          <IconButton label={`Rename ${conversation.title}`} onClick={() => setEditing(true)}>
            <PencilIcon />
          </IconButton>
          <IconButton label={`Delete ${conversation.title}`} onClick={deletion.ask}>
            <TrashIcon />
          </IconButton>
          <IconButton
            ref={moreButton}
            label={`More for ${conversation.title}`}
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span aria-hidden="true">⋯</span>
          </IconButton>
        </div>
      </div>
      {menuOpen ? (
        <div
          id={menuId}
          className="conversation-menu"
          role="group"
          aria-label={`Place ${conversation.title}`}
          onKeyDown={(event) => {
            if (event.key === 'Escape') closeMenu();
          }}
        >
          <button
            type="button"
            onClick={() => {
              onPlace({ pinned: !conversation.pinned });
              closeMenu();
            }}
          >
            {conversation.pinned ? 'Unpin' : 'Pin'}
          </button>
          {folders
            .filter((folder) => folder.id !== conversation.folderId)
            .map((folder) => (
              <button
                key={folder.id}
                type="button"
                onClick={() => {
                  onPlace({ folderId: folder.id });
                  closeMenu();
                }}
              >
                Move to {folder.name}
              </button>
            ))}
          {conversation.folderId ? (
            <button
              type="button"
              onClick={() => {
                onPlace({ folderId: null });
                closeMenu();
              }}
            >
              Remove from folder
            </button>
          ) : folders.length === 0 ? (
            <span className="field-hint">Make a folder with “New folder” to file it.</span>
          ) : null}
        </div>
      ) : null}
      {deletion.dialog}
    </li>
  );
}
