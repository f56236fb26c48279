// The chat screen: the conversation list beside the open conversation. Conversations live in main; this keeps
// only which one is open, the search text, the model for a chat not created yet, and whether the list is shown
// (it folds away, and starts folded in a narrow window). A skip link leads the keyboard past the list to the
// message box.

import { useCallback, useEffect, useState } from 'react';
import type { ChatPreset, ChatSettings, Conversation, ModelOption } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge, useBridgeEvent } from '../bridge/bridge-context.js';
import { ConversationList } from './conversation-list.js';
import { composerTextareaId } from './composer.js';
import { ConversationView } from './conversation-view.js';
import { defaultChatSettings } from './conversation-settings.js';
import { presetSettings, usePresets } from './presets.js';
import { initialModel } from './model-picker.js';
import { useConversation } from './use-conversation.js';
import { ErrorNotice } from '../ui/parts.js';

/** From this width on, the conversation list is shown when the screen opens. */
const wideWindowPx = 960;

export function ChatScreen() {
  const bridge = useBridge();
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [models, setModels] = useState<ModelOption[] | null>(null);
  const [draftModel, setDraftModel] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [listShown, setListShown] = useState(() => window.matchMedia(`(min-width: ${wideWindowPx}px)`).matches);
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

  useEffect(() => {
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

  useBridgeEvent('chat:conversations-changed', (change) => {
    if (change.change === 'deleted' && change.conversationId === selectedId) setSelectedId(null);
    void refreshList();
  });

  const { dispatch, markFresh } = conversation;
  const openNew = useCallback(
    (created: Conversation) => {
      // A new conversation is empty: show it at once instead of loading it (its first events may be on the way).
      markFresh(created.id);
      setSelectedId(created.id);
      dispatch({
        type: 'loaded',
        detail: { conversation: created, messages: [], pendingApprovals: [], running: false },
      });
    },
    [dispatch, markFresh],
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

  return (
    <div className={listShown ? 'chat-screen' : 'chat-screen list-hidden'}>
      <button type="button" className="skip-link" onClick={() => document.getElementById(composerTextareaId)?.focus()}>
        Skip to the message box
      </button>
      <ConversationList
        hidden={!listShown}
        conversations={conversations}
        selectedId={selectedId}
        query={query}
        onQueryChange={setQuery}
        onSelect={setSelectedId}
        onCreate={() => void create().catch((error: unknown) => setListError(errorMessage(error)))}
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
      <div className="chat-main">
        <ErrorNotice message={listError} />
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
      </div>
    </div>
  );
}
