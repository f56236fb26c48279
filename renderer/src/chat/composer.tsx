// Where the user writes: Enter sends, Shift+Enter starts a new line; files (images and PDFs when the model takes
// them, text and code files always) come by paste, drop (on the whole conversation) or the Attach button, shown as
// chips until sent (attachments.ts reads them, attachment-chips.tsx draws them); an MCP server's prompt fills the box and
// its resources go with the message (mcp-pickers.tsx). Send and Stop share one place, so the layout stays put when
// a turn starts or ends.

import { useRef, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent } from 'react';
import { PaperclipIcon, PromptIcon } from '../shell/icons.js';
import { IconButton } from '../ui/icon-button.js';
import { AttachmentChips } from './attachment-chips.js';
import { type Attachment, type AttachmentAbility } from './attachments.js';
import { useGrowingTextarea } from './use-growing-textarea.js';
import { PromptDialog, ResourceDialog, type ChosenResource, type InsertedPrompt } from './mcp-pickers.js';

/** The message box's id, for the chat screen's skip link. */
export const composerTextareaId = 'composer-message';

interface ComposerProps {
  running: boolean;
  /** Why sending is impossible right now (no model chosen…), or null. */
  blockedReason: string | null;
  ability: AttachmentAbility;
  attachments: Attachment[];
  onAddFiles(files: File[]): void;
  onRemoveAttachment(index: number): void;
  resources: ChosenResource[];
  onAttachResources(resources: ChosenResource[]): void;
  onRemoveResource(index: number): void;
  /** A prompt's images (and a note of what it could not put in the box). */
  onPromptInserted(prompt: InsertedPrompt): void;
  /** Resolves true when the message was taken (the text is cleared then). */
  onSend(text: string): Promise<boolean>;
  onStop(): void;
}

export function Composer(props: ComposerProps) {
  const { running, blockedReason, ability, attachments, resources } = props;
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [picking, setPicking] = useState<'prompt' | 'resource' | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  useGrowingTextarea(textarea, text);
  const canSend =
    !running && !sending && !blockedReason && (text.trim() !== '' || attachments.length > 0 || resources.length > 0);

  function insertPrompt(prompt: InsertedPrompt) {
    setPicking(null);
    if (prompt.text !== '')
      setText((current) => (current.trim() === '' ? prompt.text : `${current}\n\n${prompt.text}`));
    props.onPromptInserted(prompt);
    textarea.current?.focus();
  }

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!canSend) return;
    setSending(true);
    const sent = text;
    setText('');
    const taken = await props.onSend(sent);
    if (!taken) setText(sent);
    setSending(false);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) void submit(event);
  }

  function onPaste(event: ClipboardEvent<HTMLTextAreaElement>) {
    const files = [...event.clipboardData.files];
    if (files.length === 0) return;
    event.preventDefault();
    props.onAddFiles(files);
  }

  return (
    <form className="composer" onSubmit={(event) => void submit(event)}>
      {resources.length > 0 ? (
        <ul className="attached-resources" aria-label="Attached resources">
          {resources.map((resource, index) => (
            <li key={`${resource.server}\u0000${resource.uri}`} title={resource.uri}>
              <PaperclipIcon />
              <span>{resource.name}</span>
              <span className="muted">{resource.server}</span>
              <button
                type="button"
                aria-label={`Remove ${resource.name}`}
                onClick={() => props.onRemoveResource(index)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {attachments.length > 0 ? (
        <AttachmentChips attachments={attachments} onRemove={props.onRemoveAttachment} />
      ) : null}
      <div className="composer-row">
        <button
          type="button"
          className="attach-button"
          title={attachTitle(ability)}
          onClick={() => fileInput.current?.click()}
        >
          <PaperclipIcon />
          <span className="attach-label">Attach</span>
        </button>
        <IconButton label="Use a prompt" title="Use a prompt of an MCP server" onClick={() => setPicking('prompt')}>
          <PromptIcon />
        </IconButton>
        <IconButton
          label="Attach a resource"
          title="Attach resources of an MCP server"
          onClick={() => setPicking('resource')}
        >
          <PaperclipIcon />
        </IconButton>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label="Files to attach"
          onChange={(event) => {
            props.onAddFiles([...(event.currentTarget.files ?? [])]);
            event.currentTarget.value = '';
          }}
        />
        <textarea
          ref={textarea}
          id={composerTextareaId}
          aria-label="Message"
          placeholder={blockedReason ?? 'Message the model (Enter sends, Shift+Enter for a new line)'}
          value={text}
          rows={3}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {running ? (
          <button
            type="button"
            className="send-button danger"
            title="Stop (Esc)"
            aria-keyshortcuts="Escape"
            onClick={props.onStop}
          >
            Stop
          </button>
        ) : (
          <button type="submit" className="send-button primary" disabled={!canSend}>
            Send
          </button>
        )}
      </div>
      {picking === 'prompt' ? <PromptDialog onInsert={insertPrompt} onClose={() => setPicking(null)} /> : null}
      {picking === 'resource' ? (
        <ResourceDialog
          onAttach={(chosen) => {
            setPicking(null);
            props.onAttachResources(chosen);
          }}
          onClose={() => setPicking(null)}
        />
      ) : null}
    </form>
  );
}

/** What the Attach button takes for this model (or paste or drop). */
function attachTitle(ability: AttachmentAbility): string {
  const kinds = [...(ability.images ? ['images'] : []), ...(ability.pdfs ? ['PDFs'] : []), 'text files'];
  const refused = [...(ability.images ? [] : ['images']), ...(ability.pdfs ? [] : ['PDFs'])];
  const said = `Attach ${kinds.join(', ').replace(/, ([^,]*)$/, ' and $1')} (or paste or drop them)`;
  return refused.length === 0
    ? said
    : `${said}. ${ability.model ?? 'This model'} does not take ${refused.join(' or ')}.`;
}
