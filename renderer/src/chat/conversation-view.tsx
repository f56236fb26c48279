// One conversation: its header (title, model, settings), the transcript and the composer. Files dropped
// anywhere on it are attached when the model accepts them; Escape stops a reply being written.

import { useEffect, useEffectEvent, useState, type DragEvent } from 'react';
import { newChatMessage, settingsOf } from '../../../shared/bridge/chat-message.js';
import { maxImagesPerMessage } from '../../../shared/bridge/limits.js';
import type {
  ApprovalDecision,
  ChatMessage,
  ChatPreset,
  ChatSettings,
  Conversation,
  ModelOption,
  PendingApproval,
} from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { PlusIcon, SidebarIcon, SlidersIcon } from '../shell/icons.js';
import { conversationListId } from './conversation-list.js';
import {
  outgoingAttachments,
  readAttachments,
  refusedAttachments,
  type Attachment,
  type AttachmentAbility,
} from './attachments.js';
import { Composer } from './composer.js';
import { CompareBar, CompareView } from './compare-view.js';
import { useCompare } from './use-compare.js';
import type { ChosenResource, InsertedPrompt } from './mcp-pickers.js';
import { ConversationCost } from './conversation-cost.js';
import { ConversationSettings } from './conversation-settings.js';
import { PresetChips, PresetsDialog, presetSettings, SavePresetDialog } from './presets.js';
import { ExportMenu } from './export-menu.js';
import { withText } from './format.js';
import { MessageList, type MessageActionHandlers } from './message-list.js';
import { ModelPicker } from './model-picker.js';
import type { useConversation } from './use-conversation.js';
import { useChanged } from '../ui/use-changed.js';
import { ErrorNotice } from '../ui/parts.js';
import { IconButton } from '../ui/icon-button.js';

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
  /** Whether the conversation list is shown beside this, and the button that folds it. */
  conversationsShown: boolean;
  onToggleConversations(): void;
  /** Starts a new chat (offered here while the list, which has its own button, is folded away). */
  onCreate(): void;
  /** The settings for a chat not created yet (the conversation takes them when its first message creates it). */
  draftSettings: ChatSettings;
  onDraftSettingsChange(settings: ChatSettings): void;
  /** The stored presets (null while loading), and what to call after one changed. */
  presets: ChatPreset[] | null;
  onPresetsChanged(): void;
}

let localIds = 0;
/** When a message of the user's was sent, for the copy shown until main's arrives. */
const sentAt = () => Date.now();

export function ConversationView(props: ConversationViewProps) {
  const { conversation, listed, models, draftModel, onDraftModelChange, ensureConversation } = props;
  const bridge = useBridge();
  const { state, dispatch } = conversation;
  const loaded = state.detail?.conversation ?? null;
  const current = loaded && listed?.id === loaded.id ? listed : loaded;
  const model = current?.model ?? draftModel;
  const modelOption = models?.find((option) => option.id === model);
  const acceptsImages = modelOption?.acceptsImages ?? false;
  const ability: AttachmentAbility = { model, images: acceptsImages, pdfs: modelOption?.acceptsPdfs ?? false };
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [resources, setResources] = useState<ChosenResource[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [showSettings, setShowSettings] = useState(false);
  const [presetDialog, setPresetDialog] = useState<'save' | 'manage' | null>(null);
  const settings = current ? settingsOf(current) : props.draftSettings;
  /** Files are being dragged over the conversation: it says it takes them. */
  const [dropping, setDropping] = useState(false);
  /** The models a message goes to side by side while Compare is on; null while it is off. */
  const [compareModels, setCompareModels] = useState<string[] | null>(null);
  const compare = useCompare(current?.id ?? null, (error) => dispatch({ type: 'error', error }));
  // Attachments and notices belong to the conversation they were made in; the text being typed carries over.
  if (useChanged(current?.id)) {
    setAttachments([]);
    setResources([]);
    setNotice(null);
  }
  // The settings close on a change of conversation, but stay open when the chat being drafted becomes one.
  const [settingsShownOn, setSettingsShownOn] = useState(current?.id);
  if (settingsShownOn !== current?.id) {
    setSettingsShownOn(current?.id);
    if (settingsShownOn !== undefined) setShowSettings(false);
  }

  async function addFiles(files: File[]) {
    if (files.length === 0) return;
    const read = await readAttachments(files, attachments, ability);
    setAttachments((previous) => [...previous, ...read.attachments]);
    setNotice(read.problems.length > 0 ? read.problems.join(' ') : null);
  }

  /** A prompt's images join the attachments (when the model takes images); what was left out is said. */
  function insertedPrompt(prompt: InsertedPrompt) {
    const notes: string[] = [];
    if (prompt.images.length > 0 && !acceptsImages) {
      notes.push(
        `${model ?? 'This model'} does not accept images: the prompt's ${prompt.images.length} image(s) were left out.`,
      );
    } else if (prompt.images.length > 0) {
      setAttachments((previous) => {
        const room = maxImagesPerMessage - previous.filter((attachment) => attachment.kind === 'image').length;
        return [...previous, ...prompt.images.slice(0, Math.max(0, room))];
      });
    }
    if (prompt.leftOut > 0) {
      notes.push(
        `The prompt's ${prompt.leftOut} assistant message(s) were left out: a message of yours carries your part only.`,
      );
    }
    setNotice(notes.length > 0 ? notes.join(' ') : null);
  }

  async function changeModel(next: string) {
    if (!current) return onDraftModelChange(next);
    try {
      const { conversation: updated } = await bridge.invoke('chat:update-conversation', {
        id: current.id,
        model: next,
      });
      dispatch({
        type: 'loaded',
        detail: { ...state.detail!, conversation: updated, messages: state.messages, versions: state.versions },
      });
    } catch (error) {
      dispatch({ type: 'error', error: errorMessage(error) });
    }
  }

  async function saveSettings(changes: Partial<ChatSettings>) {
    if (!current) return props.onDraftSettingsChange({ ...props.draftSettings, ...changes });
    try {
      await bridge.invoke('chat:update-conversation', { id: current.id, ...changes });
    } catch (error) {
      dispatch({ type: 'error', error: errorMessage(error) });
    }
  }

  /** The preset's settings (and model, when it has one) for this chat, which has no messages yet. */
  async function applyPreset(preset: ChatPreset) {
    if (!current) {
      props.onDraftSettingsChange(presetSettings(preset));
      if (preset.model) onDraftModelChange(preset.model);
      return;
    }
    try {
      const { conversation: updated } = await bridge.invoke('chat:update-conversation', {
        id: current.id,
        ...presetSettings(preset),
        ...(preset.model ? { model: preset.model } : {}),
      });
      dispatch({ type: 'loaded', detail: { ...state.detail!, conversation: updated, messages: state.messages } });
    } catch (error) {
      dispatch({ type: 'error', error: errorMessage(error) });
    }
  }

  async function send(text: string): Promise<boolean> {
    if (compareModels) return sendToCompare(text, compareModels);
    const refused = refusedAttachments(attachments, ability);
    if (refused) {
      setNotice(refused);
      return false;
    }
    const { images, documents, textFiles, parts: attachedParts } = outgoingAttachments(attachments);
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
          attachedParts.length === 0
            ? text
            : [...(text.trim() === '' ? [] : [{ type: 'text' as const, text }]), ...attachedParts],
        status: 'complete',
        createdAt: sentAt(),
      }),
    });
    try {
      const { message } = await bridge.invoke('chat:send', {
        conversationId: target.id,
        text,
        images,
        resources: resources.map(({ server, uri }) => ({ server, uri })),
        documents,
        textFiles,
      });
      dispatch({ type: 'send-done', localId, message });
      setAttachments([]);
      setResources([]);
      setNotice(null);
      return true;
    } catch (error) {
      dispatch({ type: 'send-failed', localId, error: errorMessage(error) });
      return false;
    }
  }

  async function sendToCompare(text: string, models: string[]): Promise<boolean> {
    if (attachments.length + resources.length > 0) {
      setNotice('A comparison sends text only: remove the attachments, or turn Compare off.');
      return false;
    }
    try {
      return await compare.start((current ?? (await ensureConversation())).id, text, models);
    } catch (error) {
      dispatch({ type: 'error', error: errorMessage(error) });
      return false;
    }
  }

  async function pickAnswer(column: number) {
    if (!(await compare.pick(column))) return;
    setCompareModels(null);
    await conversation.reload();
  }

  function stop() {
    if (!current) return;
    bridge.invoke('chat:stop', { conversationId: current.id }).catch((error: unknown) => {
      dispatch({ type: 'error', error: errorMessage(error) });
    });
  }

  const stopOnEscape = useEffectEvent((event: KeyboardEvent) => {
    // An open dialog, an edit being cancelled or a menu closing had the Escape first.
    if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return;
    if (compare.running) compare.stop();
    if (state.running) stop();
  });
  useEffect(() => {
    if (!state.running && !compare.running) return;
    const listener = (event: KeyboardEvent) => stopOnEscape(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [state.running, compare.running]);

  /** After a change of the history that main refused: show main's history again, and why. */
  async function restore(error: unknown) {
    await conversation.reload();
    dispatch({ type: 'error', error: errorMessage(error) });
  }

  const messageActions: MessageActionHandlers = {
    onRegenerate(messageId: string, nextModel?: string) {
      if (!current) return;
      const at = state.messages.findIndex((message) => message.id === messageId);
      const question = state.messages.findLast((message, index) => index < at && message.role === 'user');
      if (!question) return;
      const newVersionOf = state.messages[state.messages.indexOf(question) + 1];
      dispatch({ type: 'history-cut', after: question.id, newVersionOf });
      bridge
        .invoke('chat:regenerate', {
          conversationId: current.id,
          messageId,
          ...(nextModel ? { model: nextModel } : {}),
        })
        .catch(restore);
    },
    async onEdit(message: ChatMessage, text: string) {
      if (!current) return false;
      dispatch({
        type: 'history-cut',
        after: message.id,
        replacement: { ...message, content: withText(message.content, text) },
        newVersionOf: message,
      });
      try {
        const { message: edited } = await bridge.invoke('chat:edit-message', {
          conversationId: current.id,
          messageId: message.id,
          text,
        });
        dispatch({ type: 'send-done', localId: message.id, message: edited });
        return true;
      } catch (error) {
        await restore(error);
        return false;
      }
    },
    onDelete(messageId: string) {
      if (!current) return;
      bridge.invoke('chat:delete-message', { conversationId: current.id, messageId }).then(
        // What follows it went too (off the screen at once); where it had other versions, another is shown now.
        ({ deleted }) => {
          dispatch({ type: 'messages-removed', ids: deleted });
          void conversation.reload();
        },
        (error: unknown) => dispatch({ type: 'error', error: errorMessage(error) }),
      );
    },
    onShowVersion(messageId: string) {
      if (!current) return;
      bridge.invoke('chat:show-version', { conversationId: current.id, messageId }).then(
        (detail) => dispatch({ type: 'loaded', detail }),
        (error: unknown) => dispatch({ type: 'error', error: errorMessage(error) }),
      );
    },
  };

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
    setDropping(false);
    const files = [...event.dataTransfer.files];
    if (files.length === 0) return;
    event.preventDefault();
    void addFiles(files);
  }

  return (
    <section
      className={dropping ? 'conversation-view dropping' : 'conversation-view'}
      aria-label={current?.title ?? 'New chat'}
      onDragOver={(event) => {
        if (![...event.dataTransfer.items].some((item) => item.kind === 'file')) return;
        event.preventDefault();
        setDropping(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={onDrop}
    >
      {dropping ? (
        <p className="drop-hint" aria-live="polite">
          Drop files to attach them
        </p>
      ) : null}
      <header className="conversation-header">
        <IconButton
          label={props.conversationsShown ? 'Hide conversations' : 'Show conversations'}
          aria-expanded={props.conversationsShown}
          aria-controls={conversationListId}
          onClick={props.onToggleConversations}
        >
          <SidebarIcon />
        </IconButton>
        {props.conversationsShown ? null : (
          <IconButton label="New chat" title="New chat" onClick={props.onCreate}>
            <PlusIcon />
          </IconButton>
        )}
        <h1>{current?.title ?? 'New chat'}</h1>
        <ModelPicker models={models} value={model} onChange={(next) => void changeModel(next)} />
        <button
          type="button"
          className="compare-toggle"
          aria-pressed={compareModels !== null}
          title="Send a message to 2–4 models side by side"
          onClick={() => setCompareModels(compareModels ? null : model ? [model] : [])}
        >
          Compare
        </button>
        <IconButton
          label="Conversation settings"
          aria-expanded={showSettings}
          onClick={() => setShowSettings((shown) => !shown)}
        >
          <SlidersIcon />
        </IconButton>
        <ExportMenu conversationId={current?.id ?? null} onError={(error) => dispatch({ type: 'error', error })} />
      </header>
      {showSettings ? (
        <ConversationSettings
          owner={current?.id ?? 'new'}
          settings={settings}
          reasons={modelOption?.reasons ?? false}
          onSave={(changes) => void saveSettings(changes)}
          onSaveAsPreset={() => setPresetDialog('save')}
          onManagePresets={() => setPresetDialog('manage')}
        />
      ) : null}
      {state.messages.length === 0 && props.presets && props.presets.length > 0 ? (
        <PresetChips
          presets={props.presets}
          onChoose={(preset) => void applyPreset(preset)}
          onManage={() => setPresetDialog('manage')}
        />
      ) : null}
      {presetDialog === 'save' ? (
        <SavePresetDialog
          settings={settings}
          model={model}
          onSaved={() => {
            setPresetDialog(null);
            props.onPresetsChanged();
          }}
          onClose={() => setPresetDialog(null)}
        />
      ) : null}
      {presetDialog === 'manage' ? (
        <PresetsDialog
          presets={props.presets ?? []}
          current={{ settings, model }}
          onChanged={props.onPresetsChanged}
          onClose={() => setPresetDialog(null)}
        />
      ) : null}
      {compareModels ? <CompareBar models={models} chosen={compareModels} onChange={setCompareModels} /> : null}
      <MessageList
        messages={state.messages}
        approvals={state.approvals}
        running={state.running}
        models={models}
        actions={messageActions}
        onDecide={decide}
        versions={state.versions}
      />
      {compare.state ? (
        <CompareView
          state={compare.state}
          running={compare.running}
          onStop={compare.stop}
          onPick={(column) => void pickAnswer(column)}
          onClose={compare.close}
        />
      ) : null}
      <div className="composer-notices" aria-live="polite">
        <ErrorNotice message={state.error} />
        {notice ? <p className="notice">{notice}</p> : null}
      </div>
      <Composer
        running={state.running || compare.running}
        blockedReason={
          compareModels && compareModels.length < 2
            ? 'Choose at least 2 models to compare'
            : model || compareModels
              ? null
              : 'Choose a model first'
        }
        ability={ability}
        attachments={attachments}
        onAddFiles={(files) => void addFiles(files)}
        onRemoveAttachment={(index) => setAttachments((previous) => previous.filter((_, at) => at !== index))}
        resources={resources}
        onAttachResources={(chosen) =>
          setResources((previous) => [
            ...previous,
            ...chosen.filter((item) => !previous.some((had) => had.server === item.server && had.uri === item.uri)),
          ])
        }
        onRemoveResource={(index) => setResources((previous) => previous.filter((_, at) => at !== index))}
        onPromptInserted={insertedPrompt}
        onSend={send}
        onStop={compare.running ? () => compare.stop() : stop}
      />
      {state.messages.length > 0 ? <ConversationCost messages={state.messages} model={modelOption} /> : null}
    </section>
  );
}
