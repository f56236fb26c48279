// The conversations, newest first, with search (titles and message text), rename and delete.

import { useEffect, useState } from 'react';
import type { Conversation } from '../../../shared/bridge/types.js';
import { PencilIcon, PlusIcon, TrashIcon } from '../shell/icons.js';
import { useChanged } from '../ui/use-changed.js';
import { ImportConversationButton } from './import-conversation.js';

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
}

export const conversationListId = 'conversation-list';

export function ConversationList(props: ConversationListProps) {
  const { conversations, selectedId } = props;
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
      <ul>
        {conversations.map((conversation) => (
          <ConversationItem
            key={conversation.id}
            conversation={conversation}
            selected={conversation.id === selectedId}
            onSelect={() => props.onSelect(conversation.id)}
            onRename={(title) => props.onRename(conversation.id, title)}
            onDelete={() => props.onDelete(conversation.id)}
          />
        ))}
        {conversations.length === 0 ? (
          <li className="conversation-empty">{props.query ? 'Nothing matches.' : 'No conversations yet.'}</li>
        ) : null}
      </ul>
    </aside>
  );
}

interface ConversationItemProps {
  conversation: Conversation;
  selected: boolean;
  onSelect(): void;
  onRename(title: string): void;
  onDelete(): void;
}

function ConversationItem({ conversation, selected, onSelect, onRename, onDelete }: ConversationItemProps) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const [confirming, setConfirming] = useState(false);
  if (useChanged(conversation.title)) setTitle(conversation.title);
  useEffect(() => {
    if (!confirming) return;
    const timer = setTimeout(() => setConfirming(false), 4_000);
    return () => clearTimeout(timer);
  }, [confirming]);

  const save = () => {
    setEditing(false);
    if (title.trim() !== '' && title.trim() !== conversation.title) onRename(title.trim());
    else setTitle(conversation.title);
  };

  return (
    <li className={selected ? 'conversation selected' : 'conversation'}>
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
        <button
          type="button"
          className="icon-button"
          aria-label={`Rename ${conversation.title}`}
          onClick={() => setEditing(true)}
        >
          <PencilIcon />
        </button>
        <button
          type="button"
          className={confirming ? 'icon-button danger confirming' : 'icon-button'}
          aria-label={confirming ? `Confirm delete ${conversation.title}` : `Delete ${conversation.title}`}
          onClick={() => (confirming ? onDelete() : setConfirming(true))}
        >
          <TrashIcon />
        </button>
      </div>
    </li>
  );
}
