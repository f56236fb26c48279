// The event that makes up almost every stream — one choice's text, nothing else that is read — turned into its
// StreamPart straight from the event's text: no JSON.parse of the whole event, no objects for the id, model,
// fingerprint and the rest that nobody reads, no walk over them. It matches only what JSON.parse, isPlainChunk and
// OpenAIChunkConverter would turn into exactly the same part (the test holds it to that on every recorded stream);
// anything else (whitespace between tokens, an escape other than the short ones, another field with a value, a
// finish reason, usage) is left to that path.

import type { StreamPart } from '../adapter.js';
import { unreadChunkFields } from './plain-chunk.js';

/** A top-level field nobody reads, with a string without escapes, null or a whole number. */
const unreadField = String.raw`"(?:${[...unreadChunkFields].join('|')})":(?:"[^"\\\x00-\x1f]*"|null|0|-?[1-9]\d{0,15})|"usage":null`;
/** The delta: `content` once, a string; besides it only `"role":"assistant"` and fields that are null. */
const deltaField = String.raw`"role":"assistant"|"(?!content")[a-z_]+":null`;
const content = String.raw`"content":"((?:[^"\\\x00-\x1f]|\\["\\/bfnrt])*)"`;
const delta = String.raw`\{(?:(?:${deltaField}),)*${content}(?:,(?:${deltaField}))*\}`;
const choice = String.raw`\{"index":(0|[1-9]\d{0,8}),"delta":${delta}(?:,"(?:logprobs|finish_reason|native_finish_reason)":null)*\}`;
const textDeltaEvent = new RegExp(
  String.raw`^\{(?:(?:${unreadField}),)*"choices":\[${choice}\](?:,(?:${unreadField}))*\}$`,
);

/**
 * The parts of a text-delta event (none when its text is empty), or null when `data` is any other event: decode
 * that one the general way.
 */
export function textDeltaParts(data: string): StreamPart[] | null {
  const match = textDeltaEvent.exec(data);
  if (!match) return null;
  const [, index, literal] = match as unknown as [string, string, string];
  if (literal === '') return [];
  // Without a backslash the literal is the text itself; with one of the short escapes, JSON says what it means.
  const text = literal.includes('\\') ? (JSON.parse(`"${literal}"`) as string) : literal;
  return [{ type: 'delta', index: Number(index), delta: { content: text } }];
}
