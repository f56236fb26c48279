// How attached files look: in the composer as chips (a thumbnail or a file mark, the name, the size and a remove
// button), and in a sent message as a chip per file — a PDF by its name, a text file folded with its text inside.

import type { AttachedTextFile } from '../../../shared/bridge/chat-message.js';
import { formatFileSize, type Attachment } from './attachments.js';

export function AttachmentChips(props: { attachments: Attachment[]; onRemove(index: number): void }) {
  return (
    <ul className="attachments" aria-label="Attachments">
      {props.attachments.map((attachment, index) => (
        <li key={`${attachment.kind}\u0000${attachment.name}\u0000${index}`} className="attachment-chip">
          {attachment.kind === 'image' ? (
            <img src={attachment.dataUrl} alt="" />
          ) : (
            <FileMark label={attachment.kind === 'pdf' ? 'PDF' : extensionOf(attachment.name)} />
          )}
          <span className="attachment-name" title={attachment.name}>
            {attachment.name}
          </span>
          <span className="attachment-size">{formatFileSize(attachment.size)}</span>
          <button type="button" aria-label={`Remove ${attachment.name}`} onClick={() => props.onRemove(index)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A PDF sent with a message. */
export function SentDocument({ name }: { name: string }) {
  return (
    <p className="sent-file">
      <FileMark label="PDF" />
      <span className="attachment-name">{name}</span>
    </p>
  );
}

/** A text file sent with a message: folded, its text (as the model got it) shown when opened. */
export function SentTextFile({ file, text }: { file: AttachedTextFile; text: string }) {
  return (
    <details className="sent-file sent-text-file">
      <summary>
        <FileMark label={extensionOf(file.name)} />
        <span className="attachment-name">{file.name}</span>
        <span className="attachment-size">{file.chars.toLocaleString()} characters</span>
      </summary>
      <pre aria-label={`Text of ${file.name}`}>{text}</pre>
    </details>
  );
}

/** The kind of file (PDF, MD, PY…), read before its name. */
function FileMark({ label }: { label: string }) {
  return <span className="file-mark">{label}</span>;
}

function extensionOf(name: string): string {
  return /\.([a-z0-9]{1,4})$/i.exec(name)?.[1]?.toUpperCase() ?? 'TXT';
}
