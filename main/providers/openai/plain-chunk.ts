// The chunks that make up almost every stream — text deltas, a finish reason, no usage — recognised without zod.
// upstreamChunkSchema stays the definition of what we accept: this check passes only a subset of it, built from
// fields the schema does not constrain and fields checked here exactly as the schema would; anything else (tool
// calls, reasoning, usage, a field this file does not know) goes through the schema. zod walking every chunk of
// every stream cost more than the JSON.parse before it.

import type { UpstreamChunk } from './upstream-schemas.js';

/** Top-level fields of a chunk that the schema leaves to anything (they are not read); `usage` may be null. */
export const unreadChunkFields: ReadonlySet<string> = new Set([
  'id',
  'object',
  'created',
  'model',
  'system_fingerprint',
  'provider',
  'service_tier',
  'obfuscation',
]);

/** Fields of a choice checked here; a choice with any other field goes through the schema. */
export const plainChoiceFields: ReadonlySet<string> = new Set([
  'index',
  'delta',
  'finish_reason',
  'native_finish_reason',
  'logprobs',
]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const nullishString = (value: unknown) => value == null || typeof value === 'string';

function isPlainDelta(delta: unknown): boolean {
  if (delta == null) return true;
  if (!isRecord(delta)) return false;
  for (const key in delta) {
    const value = delta[key];
    if (key === 'content' ? !nullishString(value) : key !== 'role' && value != null) return false;
  }
  return true;
}

function isPlainChoice(choice: unknown): boolean {
  if (!isRecord(choice)) return false;
  for (const key in choice) if (!plainChoiceFields.has(key)) return false;
  const { index, delta, finish_reason, native_finish_reason, logprobs } = choice;
  return (
    (index == null || (Number.isSafeInteger(index) && (index as number) >= 0)) &&
    nullishString(finish_reason) &&
    nullishString(native_finish_reason) &&
    (logprobs == null || typeof logprobs === 'object') &&
    isPlainDelta(delta)
  );
}

/**
 * True when `json` is a chunk of text deltas (content and role only) without usage or error: the schema would
 * accept it as it is, so it can be used without the schema's walk.
 */
export function isPlainChunk(json: unknown): json is UpstreamChunk {
  if (!isRecord(json)) return false;
  for (const key in json) {
    if (key === 'usage' ? json.usage != null : key !== 'choices' && !unreadChunkFields.has(key)) return false;
  }
  const { choices } = json;
  if (choices == null) return true;
  if (!Array.isArray(choices)) return false;
  for (const choice of choices) if (!isPlainChoice(choice)) return false;
  return true;
}
