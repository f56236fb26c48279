// One conversation: its header (title, model, settings), the transcript and the composer. Images dropped
// anywhere on it are attached when the model accepts them.

import { useState, type DragEvent } from 'react';
import { newChatMessage } from '../../../shared/bridge/chat-message.js';
import type { ApprovalDecision, Conversation, ModelOption, PendingApproval } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { SlidersIcon } from '../shell/icons.js';
import { readAttachments, type Attachment } from './attachments.js';
import { Composer } from './composer.js';
import { ConversationSettings } from './conversation-settings.js';
import { MessageList } from './message-list.js';
import { ModelPicker } from './model-picker.js';
import type { useConversation } from './use-conversation.js';
import { useChanged } from '../ui/use-changed.js';
import { ErrorNotice } from '../ui/parts.js';

interface ConversationViewProps {
  conversation: ReturnType<typeof useConversation>;
  /** The conversation as the list has it (kept current by change events: a new title, model or settings). */
  listed: Conversation | undefined;
  models: ModelOption[] | null;
  /** The model for a message sent before any conversation exists. */
  draftModel: string | null;
  onDraftModelChange(model: string): void;
  /** Creates a conversation for the first message when none is open; returns its id. */
  ensureConversation(): Promise<Conversation>;
}

let localIds = 0;

export function ConversationView(props: ConversationViewProps) {
  const { conversation, listed, models, draftModel, onDraftModelChange, ensureConversation } = props;
  const bridge = useBridge();
  const { state, dispatch } = conversation;
  const loaded = state.detail?.conversation ?? null;
  const current = loaded && listed?.id === loaded.id ? listed : loaded;
  const model = current?.model ?? draftModel;
  const modelOption = models?.find((option) => option.id === model);
  const acceptsImages = modelOption?.acceptsImages ?? false;
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [showSettings, setShowSettings] = useState(false);
  // Attachments and notices belong to the conversation they were made in; the text being typed carries over.
  if (useChanged(current?.id)) {
    setAttachments([]);
    setNotice(null);
    setShowSettings(false);
  }

  async function addFiles(files: File[]) {
    if (files.length === 0) return;
    if (!acceptsImages) {
      setNotice(`${model ?? 'This model'} does not accept images.`);
      return;
    }
    const read = await readAttachments(files, attachments.length);
    setAttachments((previous) => [...previous, ...read.attachments]);
    setNotice(read.problem);
  }

  async function changeModel(next: string) {
    if (!current) return onDraftModelChange(next);
    try {
      const { conversation: updated } = await bridge.invoke('chat:update-conversation', {
        id: current.id,
        model: next,
      });
      dispatch({ type: 'loaded', detail: { ...state.detail!, conversation: updated, messages: state.messages } });
    } catch (error) {
      dispatch({ type: 'error', error: errorMessage(error) });
    }
  }

  async function saveSettings(changes: { systemPrompt?: string; temperature?: number | null }) {
    if (!current) return;
    try {
      await bridge.invoke('chat:update-conversation', { id: current.id, ...changes });
    } catch (error) {
      dispatch({ type: 'error', error: errorMessage(error) });
    }
  }

  async function send(text: string): Promise<boolean> {
    const images = acceptsImages ? attachments.map((attachment) => attachment.dataUrl) : [];
    let target: Conversation;
    try {
      target = current ?? (await ensureConversation());
    } catch (error) {
      dispatch({ type: 'error', error: errorMessage(error) });
      return false;
    }
    const localId = `local-${++localIds}`;
    dispatch({
      type: 'send-start',
      message: newChatMessage({
        id: localId,
        conversationId: target.id,
        role: 'user',
        content:
          images.length === 0
            ? text
            : [{ type: 'text', text }, ...images.map((url) => ({ type: 'image_url' as const, image_url: { url } }))],
        status: 'complete',
        createdAt: Date.now(),
      }),
    });
    try {
      const { message } = await bridge.invoke('chat:send', { conversationId: target.id, text, images });
      dispatch({ type: 'send-done', localId, message });
      setAttachments([]);
      setNotice(null);
      return true;
    } catch (error) {
      dispatch({ type: 'send-failed', localId, error: errorMessage(error) });
      return false;
    }
  }

  function stop() {
    if (!current) return;
    bridge.invoke('chat:stop', { conversationId: current.id }).catch((error: unknown) => {
      dispatch({ type: 'error', error: errorMessage(error) });
    });
  }

  function decide(approval: PendingApproval, decision: ApprovalDecision) {
    bridge
      .invoke('chat:resolve-approval', {
        conversationId: approval.conversationId,
        toolCallId: approval.toolCallId,
        decision,
      })
      .catch((error: unknown) => dispatch({ type: 'error', error: errorMessage(error) }));
  }

  function onDrop(event: DragEvent) {
    const files = [...event.dataTransfer.files].filter((file) => file.type.startsWith('image/'));
    if (files.length === 0) return;
    event.preventDefault();
    void addFiles(files);
  }

  return (
    <section
      className="conversation-view"
      aria-label={current?.title ?? 'New chat'}
      onDragOver={(event) => {
        if ([...event.dataTransfer.items].some((item) => item.kind === 'file')) event.preventDefault();
      }}
      onDrop={onDrop}
    >
      <header className="conversation-header">
        <h1>{current?.title ?? 'New chat'}</h1>
        <ModelPicker models={models} value={model} onChange={(next) => void changeModel(next)} />
        <button
          type="button"
          className="icon-button"
          aria-label="Conversation settings"
          aria-expanded={showSettings}
          disabled={!current}
          onClick={() => setShowSettings((shown) => !shown)}
        >
          <SlidersIcon />
        </button>
      </header>
      {showSettings && current ? (
        <ConversationSettings conversation={current} onSave={(changes) => void saveSettings(changes)} />
      ) : null}
      <MessageList messages={state.messages} approvals={state.approvals} running={state.running} onDecide={decide} />
      <div className="composer-notices" aria-live="polite">
        <ErrorNotice message={state.error} />
        {notice ? <p className="notice">{notice}</p> : null}
      </div>
      <Composer
        running={state.running}
        blockedReason={model ? null : 'Choose a model first'}
        acceptsImages={acceptsImages}
        attachments={attachments}
        onAddFiles={(files) => void addFiles(files)}
        onRemoveAttachment={(index) => setAttachments((previous) => previous.filter((_, at) => at !== index))}
        onSend={send}
        onStop={stop}
      />
    </section>
  );
}
