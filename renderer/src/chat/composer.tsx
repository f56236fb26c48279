// Where the user writes: Enter sends, Shift+Enter starts a new line; images come by paste, drop (on the whole
// conversation) or the attach button, only when the model accepts them. Send and Stop share one place, so the
// layout stays put when a turn starts or ends.

import { useRef, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent } from 'react';
import { ImageIcon } from '../shell/icons.js';
import type { Attachment } from './attachments.js';

/** The message box's id, for the chat screen's skip link. */
export const composerTextareaId = 'composer-message';

interface ComposerProps {
  running: boolean;
  /** Why sending is impossible right now (no model chosen…), or null. */
  blockedReason: string | null;
  acceptsImages: boolean;
  attachments: Attachment[];
  onAddFiles(files: File[]): void;
  onRemoveAttachment(index: number): void;
  /** Resolves true when the message was taken (the text is cleared then). */
  onSend(text: string): Promise<boolean>;
  onStop(): void;
}

export function Composer(props: ComposerProps) {
  const { running, blockedReason, acceptsImages, attachments } = props;
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const canSend = !running && !sending && !blockedReason && (text.trim() !== '' || attachments.length > 0);

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
    const images = [...event.clipboardData.files].filter((file) => file.type.startsWith('image/'));
    if (images.length === 0) return;
    event.preventDefault();
    props.onAddFiles(images);
  }

  return (
    <form className="composer" onSubmit={(event) => void submit(event)}>
      {attachments.length > 0 ? (
        <ul className="attachments" aria-label="Attachments">
          {attachments.map((attachment, index) => (
            <li key={attachment.dataUrl.slice(-32) + index}>
              <img src={attachment.dataUrl} alt={attachment.name} />
              <button
                type="button"
                aria-label={`Remove ${attachment.name}`}
                onClick={() => props.onRemoveAttachment(index)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="composer-row">
        <button
          type="button"
          className="icon-button"
          aria-label="Attach image"
          title={acceptsImages ? 'Attach images (or paste or drop them)' : 'This model does not accept images'}
          disabled={!acceptsImages}
          onClick={() => fileInput.current?.click()}
        >
          <ImageIcon />
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          multiple
          hidden
          onChange={(event) => {
            props.onAddFiles([...(event.currentTarget.files ?? [])]);
            event.currentTarget.value = '';
          }}
        />
        <textarea
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
    </form>
  );
}
