// Files from the user's disk sent with a message: PDFs become `file` parts (the gateway hands them to each provider
// kind in its own shape), text and code files become text parts naming them. The bridge contract bounds each file;
// the total of a message is checked here, so that the request still fits the gateway's body limit.

import type { ContentPart } from '../../shared/api/index.js';
import { textFilePart } from '../../shared/bridge/chat-message.js';
import { maxAttachmentBytesPerMessage } from '../../shared/bridge/limits.js';
import type { ChatMessage, ModelOption } from '../../shared/bridge/types.js';
import { ChatError } from './chat-error.js';

export interface AttachedFiles {
  /** PDFs as base64 data URLs. */
  documents: readonly { name: string; dataUrl: string }[];
  textFiles: readonly { name: string; text: string }[];
}

export const noAttachedFiles: AttachedFiles = { documents: [], textFiles: [] };

export function textFileParts(files: AttachedFiles): ContentPart[] {
  return files.textFiles.map((file) => textFilePart(file.name, file.text));
}

export function documentParts(files: AttachedFiles): ContentPart[] {
  return files.documents.map(({ name, dataUrl }) => ({ type: 'file', file: { filename: name, file_data: dataUrl } }));
}

/** Refuses a message whose images and files together are too large to send in one request. */
export function checkAttachmentTotal(imageUrls: readonly string[], files: AttachedFiles): void {
  const decoded = (dataUrl: string) => Math.floor(((dataUrl.length - dataUrl.indexOf(',') - 1) * 3) / 4);
  const total =
    imageUrls.reduce((sum, url) => sum + decoded(url), 0) +
    files.documents.reduce((sum, file) => sum + decoded(file.dataUrl), 0) +
    files.textFiles.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);
  if (total > maxAttachmentBytesPerMessage) {
    const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    throw new ChatError(
      'invalid-request',
      `The attachments of this message come to ${mib(total)} MiB; at most ${mib(maxAttachmentBytesPerMessage)} MiB can go with one message.`,
    );
  }
}

/** Why the model cannot read these PDFs, or null. A model missing from the list is let through (the gateway decides). */
export function documentRefusal(model: string, option: ModelOption | undefined): string | null {
  if (!option || option.acceptsPdfs) return null;
  return `${model} does not accept PDFs: remove them or choose another model.`;
}

/** Sent to the model as a PDF: a user's attached document. */
export function hasDocument(message: ChatMessage): boolean {
  return message.role === 'user' && Array.isArray(message.content) && message.content.some((p) => p.type === 'file');
}
