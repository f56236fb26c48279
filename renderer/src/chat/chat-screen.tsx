// The chat screen: the conversation list beside the open conversation. Conversations live in main; which one is
// open is the address's (`#/chat/<id>`, route.ts: a reload or a trip to another screen comes back to it, back and
// forward move between conversations); this keeps the search text, the model for a chat not created yet, and
// whether the list is shown (it folds away, and starts folded in a narrow window). A skip link leads the keyboard
// past the list to the message box.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChatPreset, ChatSettings, Conversation, ModelOption } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge, useBridgeEvent, useServerConnection } from '../bridge/bridge-context.js';
import { ConversationList, conversationListId } from './conversation-list.js';
import { composerTextareaId } from './composer.js';
import { ConversationView } from './conversation-view.js';
import { defaultChatSettings } from '../../../shared/bridge/chat-message.js';
import { presetSettings, usePresets } from './presets.js';
import { initialModel } from './model-picker.js';
import { useChatShortcuts } from './use-chat-shortcuts.js';
import { useConversation } from './use-conversation.js';
import { ErrorNotice } from '../ui/parts.js';
import { navigate, routeHash, useRoute } from '../shell/route.js';

/** Opens a conversation (null: a new chat) by going to its address. */
function openConversation(id: string | null, options: { replace?: boolean } = {}) {
  navigate(id === null ? routeHash('chat') : routeHash('chat', id), options);
}

/**
 * From this width on, the conversation list is shown beside the conversation; below it, the list starts folded,
 * folds when the window narrows, and when opened lies over the conversation (which keeps its width) until one is
 * picked.
 */
const wideWindowPx = 960;
const wideWindow = `(min-width: ${wideWindowPx}px)`;

export function ChatScreen() {
  const bridge = useBridge();
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const route = useRoute();
  const selectedId = route.screen === 'chat' ? (route.rest[0] ?? null) : null;
  const [query, setQuery] = useState('');
  const [models, setModels] = useState<ModelOption[] | null>(null);
  const [draftModel, setDraftModel] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [listShown, setListShown] = useState(() => window.matchMedia(wideWindow).matches);
  const conversation = useConversation(selectedId);
  // A new chat starts from the default preset, when there is one.
  const presets = usePresets();
  const defaultPreset = presets.presets?.find((preset) => preset.isDefault);
  const [draftSettings, setDraftSettings] = useState<ChatSettings>(defaultChatSettings);
  const [draftFrom, setDraftFrom] = useState<ChatPreset | null>(null);
  if (defaultPreset && draftFrom === null && draftSettings === defaultChatSettings) {
    setDraftFrom(defaultPreset);
    setDraftSettings(presetSettings(defaultPreset));
    if (defaultPreset.model) setDraftModel(defaultPreset.model);
  }

  const refreshList = useCallback(async () => {
    try {
      const { conversations: listed } = await bridge.invoke('chat:list-conversations', query ? { query } : {});
      setConversations(listed);
      setListError(null);
    } catch (error) {
      setListError(errorMessage(error));
    }
  }, [bridge, query]);

  useEffect(() => {
    const timer = setTimeout(() => void refreshList(), query ? 200 : 0);
    return () => clearTimeout(timer);
  }, [refreshList, query]);

  const loadModels = useCallback(() => {
    bridge.invoke('models:list').then(
      ({ models: listed }) => {
        setModels(listed);
        setDraftModel((current) => current ?? initialModel(listed));
      },
      (error: unknown) => {
        setModels([]);
        setListError(errorMessage(error));
      },
    );
  }, [bridge]);
  useEffect(loadModels, [loadModels]);

  // While a browser tab's server is unreachable the chat's controls are disabled (the app's banner says why); when
  // it answers again, what may have failed or changed meanwhile is loaded again: the list, the models, and the open
  // conversation (whose events were missed).
  const unreachable = useServerConnection() === 'unreachable';
  const { reload: reloadConversation } = conversation;
  const wasUnreachable = useRef(false);
  useEffect(() => {
    if (unreachable) wasUnreachable.current = true;
    if (unreachable || !wasUnreachable.current) return;
    wasUnreachable.current = false;
    void refreshList();
    loadModels();
    void reloadConversation();
  }, [unreachable, refreshList, loadModels, reloadConversation]);

  useBridgeEvent('chat:conversations-changed', (change) => {
    if (change.change === 'deleted' && change.conversationId === selectedId) openConversation(null, { replace: true });
    void refreshList();
  });

  const { dispatch, markFresh } = conversation;
  const openNew = useCallback(
    (created: Conversation) => {
      // A new conversation is empty: show it at once instead of loading it (its first events may be on the way).
      markFresh(created.id);
      // The blank new chat it was made from is not a place to go back to.
      openConversation(created.id, { replace: selectedId === null });
      dispatch({
        type: 'loaded',
        detail: { conversation: created, messages: [], pendingApprovals: [], running: false },
      });
    },
    [dispatch, markFresh, selectedId],
  );

  const create = useCallback(async () => {
    // The chat being drafted gives its settings; a new chat beside an open one starts from the default preset.
    const drafting = !conversation.state.detail;
    const settings = drafting ? draftSettings : defaultPreset ? presetSettings(defaultPreset) : defaultChatSettings;
    const model =
      (drafting ? draftModel : defaultPreset?.model) ?? conversation.state.detail?.conversation.model ?? draftModel;
    const { conversation: created } = await bridge.invoke('chat:create-conversation', {
      ...settings,
      ...(model ? { model } : {}),
    });
    setDraftSettings(defaultPreset ? presetSettings(defaultPreset) : defaultChatSettings);
    openNew(created);
    return created;
  }, [bridge, conversation.state.detail, draftModel, draftSettings, defaultPreset, openNew]);

  useEffect(() => {
    const query = window.matchMedia(wideWindow);
    const onChange = () => setListShown(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  /** In a narrow window the list lies over the conversation: it folds once a conversation is picked. */
  const foldWhenNarrow = () => {
    if (!window.matchMedia(wideWindow).matches) setListShown(false);
  };

  useChatShortcuts({
    'new-chat': () => void create().catch((error: unknown) => setListError(errorMessage(error))),
    search: () => {
      setListShown(true);
      // The list may be folded away: it is shown first, then its search field takes the keyboard.
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>(`#${conversationListId} input[type="search"]`)?.focus(),
      );
    },
    'focus-composer': () => document.getElementById(composerTextareaId)?.focus(),
    'model-picker': () => {
      const picker = document.querySelector<HTMLInputElement>('input[role="combobox"][aria-label="Model"]');
      picker?.focus();
      picker?.click();
    },
  });

  return (
    <div
      className={listShown ? 'chat-screen' : 'chat-screen list-hidden'}
      onKeyDown={(event) => {
        // The list lying over the conversation closes with Escape, as an overlay does (before a reply is stopped).
        if (event.key !== 'Escape' || event.shiftKey || event.defaultPrevented || !listShown) return;
        if (window.matchMedia(wideWindow).matches || document.querySelector('dialog[open]')) return;
        event.preventDefault();
        setListShown(false);
      }}
    >
      {/* A fieldset that lays out nothing (shell.css): disabled, it disables every control of the chat at once. */}
      <fieldset className="while-reachable" disabled={unreachable}>
        <button
          type="button"
          className="skip-link"
          onClick={() => document.getElementById(composerTextareaId)?.focus()}
        >
          Skip to the message box
        </button>
        <ConversationList
          hidden={!listShown}
          conversations={conversations}
          selectedId={selectedId}
          query={query}
          onQueryChange={setQuery}
          onSelect={(id) => {
            foldWhenNarrow();
            openConversation(id);
          }}
          onCreate={() => {
            foldWhenNarrow();
            void create().catch((error: unknown) => setListError(errorMessage(error)));
          }}
          onRename={(id, title) =>
            void bridge
              .invoke('chat:rename-conversation', { id, title })
              .catch((error: unknown) => setListError(errorMessage(error)))
          }
          onDelete={(id) =>
            void bridge
              .invoke('chat:delete-conversation', { id })
              .catch((error: unknown) => setListError(errorMessage(error)))
          }
          onPlace={(id, place) =>
            void bridge
              .invoke('chat:place-conversation', { id, ...place })
              .catch((error: unknown) => setListError(errorMessage(error)))
          }
          onError={setListError}
        />
        {/* A click on the conversation folds the list lying over it (in a narrow window); the list's own toggle
          does that itself. */}
        <div
          className="chat-main"
          onPointerDown={(event) => {
            if (!listShown || (event.target as Element).closest(`[aria-controls="${conversationListId}"]`)) return;
            foldWhenNarrow();
          }}
        >
          <ErrorNotice message={listError} />
          {conversation.missing ? (
            <ConversationNotFound onCreate={() => openConversation(null, { replace: true })} />
          ) : (
            <ConversationView
              conversation={conversation}
              listed={conversations.find((listed) => listed.id === selectedId)}
              models={models}
              draftModel={draftModel}
              onDraftModelChange={setDraftModel}
              ensureConversation={create}
              conversationsShown={listShown}
              onToggleConversations={() => setListShown((shown) => !shown)}
              onCreate={() => void create().catch((error: unknown) => setListError(errorMessage(error)))}
              draftSettings={draftSettings}
              onDraftSettingsChange={setDraftSettings}
              presets={presets.presets}
              onPresetsChanged={() => void presets.reload()}
            />
          )}
        </div>
      </fieldset>
    </div>
  );
}

/** The address names a conversation main does not have: deleted, or a link from elsewhere. */
function ConversationNotFound({ onCreate }: { onCreate(): void }) {
  return (
    <section className="conversation-not-found" aria-labelledby="conversation-not-found-title">
      <h1 id="conversation-not-found-title">Conversation not found</h1>
      <p>It may have been deleted, or the address does not belong to this Switchyard.</p>
      <button type="button" className="primary" onClick={onCreate}>
        Start a new chat
      </button>
    </section>
  );
}
