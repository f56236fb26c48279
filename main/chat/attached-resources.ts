// What goes with a message besides its typed text and files: the MCP resources a person attached, read when the
// message is sent (a text resource becomes a text part, an image one an image), and the checks that the model can
// read the images and PDFs it is about to be sent, asked of the models the picker offers.

import type { ContentPart } from '../../shared/api/index.js';
import { resourceTextPart } from '../../shared/bridge/chat-message.js';
import { maxImageBytes, maxResourceChars } from '../../shared/bridge/limits.js';
import { mediaDataUrl, showableMedia } from '../../shared/bridge/tool-media.js';
import type { ChatMessage, ModelOption, ResourceReference } from '../../shared/bridge/types.js';
import { documentRefusal } from './attached-files.js';
import { ChatError } from './chat-error.js';
import type { ChatTools, ResourceContent } from './chat-tools.js';

/** Each resource's contents as text parts and image data URLs; refuses what cannot be sent to a model. */
export async function readAttachedResources(
  tools: Pick<ChatTools, 'readResource'>,
  resources: readonly ResourceReference[],
): Promise<{ texts: ContentPart[]; images: string[] }> {
  const texts: ContentPart[] = [];
  const images: string[] = [];
  for (const { server, uri } of resources) {
    let contents: ResourceContent[];
    try {
      contents = await tools.readResource(server, uri);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new ChatError('unavailable', `Could not read ${uri} from MCP server "${server}": ${why}`);
    }
    for (const content of contents) {
      const mimeType = content.mimeType?.toLowerCase();
      const text = 'text' in content ? content.text : textOfBlob(content.blob, mimeType);
      if (text !== null) {
        if (text.length > maxResourceChars) {
          throw new ChatError(
            'invalid-request',
            `${content.uri} is too long to attach: ${text.length.toLocaleString('en')} characters, at most ${maxResourceChars.toLocaleString('en')}.`,
          );
        }
        texts.push(resourceTextPart({ server, uri: content.uri, ...(mimeType ? { mimeType } : {}) }, text));
        continue;
      }
      const data = 'blob' in content ? content.blob : '';
      const image = mimeType ? showableMedia({ type: 'image', mimeType, data }) : null;
      if (!image) {
        throw new ChatError(
          'invalid-request',
          `${content.uri} is ${mimeType ?? 'binary data'}: only text and PNG, JPEG, GIF or WebP images (up to ${maxImageBytes / 1024 / 1024} MiB) can be attached.`,
        );
      }
      images.push(mediaDataUrl(image));
    }
  }
  return { texts, images };
}

/** A binary resource of a text type (text/*, JSON) as its UTF-8 text; null for any other. */
function textOfBlob(blob: string, mimeType: string | undefined): string | null {
  if (!mimeType || !(mimeType.startsWith('text/') || /^application\/([\w.+-]+\+)?json$/.test(mimeType))) return null;
  return Buffer.from(blob, 'base64').toString('utf8');
}

export async function checkImageInput(models: () => Promise<ModelOption[]>, model: string): Promise<void> {
  const option = (await models()).find((candidate) => candidate.id === model);
  if (option && !option.acceptsImages) {
    throw new ChatError('invalid-request', `${model} does not accept images: remove them or choose another model.`);
  }
}

export async function checkDocumentInput(models: () => Promise<ModelOption[]>, model: string): Promise<void> {
  const refusal = documentRefusal(
    model,
    (await models()).find((option) => option.id === model),
  );
  if (refusal) throw new ChatError('invalid-request', refusal);
}

/** Sent to the model as an image: a user's attachment (a tool's image is kept for the user, described to the model). */
export function hasImage(message: ChatMessage): boolean {
  if (message.role !== 'user') return false;
  return Array.isArray(message.content) && message.content.some((part) => part.type === 'image_url');
}
