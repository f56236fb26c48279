// Files the user attaches from disk (the Attach button, a drop, a paste), read within the limits main enforces:
// images and PDFs into data URLs, anything else that reads as UTF-8 text (notes, CSV, JSON, source code) into its
// text. What the chosen model cannot take is refused here, before anything is sent, with the reason.

import type { ContentPart } from '../../../shared/api/index.js';
import { textFilePart } from '../../../shared/bridge/chat-message.js';
import {
  acceptedImageTypes,
  maxAttachmentBytesPerMessage,
  maxDocumentBytes,
  maxDocumentsPerMessage,
  maxImageBytes,
  maxImagesPerMessage,
  maxTextFileChars,
  maxTextFilesPerMessage,
} from '../../../shared/bridge/limits.js';

export type Attachment =
  | { kind: 'image'; name: string; size: number; dataUrl: string }
  | { kind: 'pdf'; name: string; size: number; dataUrl: string }
  | { kind: 'text'; name: string; size: number; text: string };

/** What the model takes, as far as the app knows. */
export interface AttachmentAbility {
  /** The model's id, for the messages. */
  model: string | null;
  images: boolean;
  pdfs: boolean;
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/** A file's size as people read it: 812 B, 14 KB, 2.3 MB. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

export async function readAttachments(
  files: File[],
  already: readonly Attachment[],
  ability: AttachmentAbility,
): Promise<{ attachments: Attachment[]; problems: string[] }> {
  const attachments: Attachment[] = [];
  const problems: string[] = [];
  const modelName = ability.model ?? 'This model';
  const count = (kind: Attachment['kind']) =>
    [...already, ...attachments].filter((attachment) => attachment.kind === kind).length;
  const total = () => [...already, ...attachments].reduce((sum, attachment) => sum + attachment.size, 0);
  for (const file of files) {
    const name = file.name || 'pasted file';
    const problem = await (async (): Promise<string | null> => {
      if (total() + file.size > maxAttachmentBytesPerMessage) {
        return `${name} does not fit: the attachments of one message may come to ${mib(maxAttachmentBytesPerMessage)}.`;
      }
      if (isImage(file)) {
        if (!ability.images) return `${modelName} does not accept images (${name}).`;
        if (file.size > maxImageBytes) return `${name} is larger than ${mib(maxImageBytes)}.`;
        if (count('image') >= maxImagesPerMessage) return `At most ${maxImagesPerMessage} images per message.`;
        attachments.push({ kind: 'image', name, size: file.size, dataUrl: await readDataUrl(file, file.type) });
        return null;
      }
      if (isPdf(file)) {
        if (!ability.pdfs) return `${modelName} does not accept PDFs (${name}).`;
        if (file.size > maxDocumentBytes) return `${name} is larger than ${mib(maxDocumentBytes)}.`;
        if (count('pdf') >= maxDocumentsPerMessage) return `At most ${maxDocumentsPerMessage} PDFs per message.`;
        attachments.push({ kind: 'pdf', name, size: file.size, dataUrl: await readDataUrl(file, 'application/pdf') });
        return null;
      }
      if (file.type.startsWith('image/')) return `${name} is not a PNG, JPEG, GIF or WebP image.`;
      // UTF-8 takes 1–4 bytes a character: a file far over the limit is refused by its size alone, unread.
      if (file.size > maxTextFileChars * 4) {
        return `${name} cannot be attached: only images, PDFs and text files of up to ${maxTextFileChars.toLocaleString('en')} characters can.`;
      }
      const text = await readText(file);
      if (text === null) return `${name} cannot be attached: only images, PDFs and text files can.`;
      if (text.length > maxTextFileChars) {
        return `${name} is too long to attach: ${text.length.toLocaleString('en')} characters, at most ${maxTextFileChars.toLocaleString('en')}.`;
      }
      if (count('text') >= maxTextFilesPerMessage) return `At most ${maxTextFilesPerMessage} text files per message.`;
      attachments.push({ kind: 'text', name, size: file.size, text });
      return null;
    })();
    if (problem) problems.push(problem);
  }
  return { attachments, problems };
}

/** Which files among these the model cannot take, said before sending (after a change of model, say). */
export function refusedAttachments(attachments: readonly Attachment[], ability: AttachmentAbility): string | null {
  const modelName = ability.model ?? 'This model';
  if (!ability.images && attachments.some((attachment) => attachment.kind === 'image')) {
    return `${modelName} does not accept images: remove them or choose another model.`;
  }
  if (!ability.pdfs && attachments.some((attachment) => attachment.kind === 'pdf')) {
    return `${modelName} does not accept PDFs: remove them or choose another model.`;
  }
  return null;
}

/**
 * The attachments as chat:send takes them, and as the parts main will store (in its order: text files, images,
 * PDFs), for the message shown until main's copy arrives.
 */
export function outgoingAttachments(attachments: readonly Attachment[]) {
  const images = attachments.flatMap((file) => (file.kind === 'image' ? [file.dataUrl] : []));
  const documents = attachments.flatMap((file) =>
    file.kind === 'pdf' ? [{ name: file.name, dataUrl: file.dataUrl }] : [],
  );
  const textFiles = attachments.flatMap((file) => (file.kind === 'text' ? [{ name: file.name, text: file.text }] : []));
  const parts: ContentPart[] = [
    ...textFiles.map((file) => textFilePart(file.name, file.text)),
    ...images.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
    ...documents.map((file) => ({ type: 'file' as const, file: { filename: file.name, file_data: file.dataUrl } })),
  ];
  return { images, documents, textFiles, parts };
}

function isImage(file: File): boolean {
  return (acceptedImageTypes as readonly string[]).includes(file.type);
}

function isPdf(file: File): boolean {
  return file.type === 'application/pdf' || (file.type === '' && /\.pdf$/i.test(file.name));
}

/** The file as UTF-8 text, or null when it is not text (invalid UTF-8, or a NUL byte: a binary file). */
async function readText(file: File): Promise<string | null> {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
    return text.includes('\u0000') ? null : text.replace(/^\uFEFF/, '');
  } catch {
    return null;
  }
}

/** A data URL of the given type (a PDF dropped from some places comes without one). */
function readDataUrl(file: File, type: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(`data:${type};base64,${url.slice(url.indexOf(',') + 1)}`);
    };
    reader.onerror = () => reject(reader.error ?? new Error(`Cannot read ${file.name}.`));
    reader.readAsDataURL(file);
  });
}
