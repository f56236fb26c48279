// Images and audio in a tool's result, as the UI shows them: an <img> or an <audio controls>, never markup. What a
// server sends is checked on both sides of the bridge: only types a browser plays as media (no SVG, which is a
// document that can carry script), only base64, at most maxToolMediaBytes each. Anything else is left to the
// result's text, which describes it ("[image image/svg+xml, 812 bytes]").

import type { ContentPart } from '../api/index.js';
import { acceptedImageTypes, maxImageBytes } from './limits.js';

export const toolAudioTypes = [
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/mpeg',
  'audio/mp3',
  'audio/ogg',
  'audio/webm',
  'audio/flac',
  'audio/mp4',
  'audio/aac',
] as const;

/** Of the decoded bytes, per image or clip: as much as the user may attach as an image. */
export const maxToolMediaBytes = maxImageBytes;

export interface ToolMedia {
  type: 'image' | 'audio';
  mimeType: string;
  /** base64 */
  data: string;
}

const base64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The part as media the UI may show, or null (a type it does not play, not base64, too large). */
export function showableMedia(part: { type: string; mimeType?: unknown; data?: unknown }): ToolMedia | null {
  const { type, mimeType, data } = part;
  if (type !== 'image' && type !== 'audio') return null;
  if (typeof mimeType !== 'string' || typeof data !== 'string') return null;
  const mime = mimeType.toLowerCase();
  const types: readonly string[] = type === 'image' ? acceptedImageTypes : toolAudioTypes;
  if (!types.includes(mime)) return null;
  if (data.length > Math.ceil((maxToolMediaBytes * 4) / 3) + 4 || !base64.test(data)) return null;
  return { type, mimeType: mime, data };
}

export function mediaDataUrl(media: ToolMedia): string {
  return `data:${media.mimeType};base64,${media.data}`;
}

/** As a content part of a stored tool message: an image_url, or an input_audio whose format is the subtype. */
export function toMediaPart(media: ToolMedia): ContentPart {
  return media.type === 'image'
    ? { type: 'image_url', image_url: { url: mediaDataUrl(media) } }
    : { type: 'input_audio', input_audio: { data: media.data, format: media.mimeType.slice('audio/'.length) } };
}

/** The media of a stored tool message's part, checked again; null for text and anything not showable. */
export function mediaOfPart(part: ContentPart): ToolMedia | null {
  if (part.type === 'input_audio') {
    return showableMedia({ type: 'audio', mimeType: `audio/${part.input_audio.format}`, data: part.input_audio.data });
  }
  if (part.type !== 'image_url') return null;
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url.url);
  return match ? showableMedia({ type: 'image', mimeType: match[1], data: match[2] }) : null;
}
