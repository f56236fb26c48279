// One upstream `chat.completion.chunk` → our StreamParts. Stateful only for tool calls: it keeps the OpenAI
// convention callers depend on (first fragment of call N: index, id, type, name, arguments ''; later fragments:
// index + arguments only), whatever the server did (Ollama sends whole calls, some servers omit index or id,
// some repeat id and name on every fragment).

import type { ChunkDelta, ToolCallDelta } from '../../../shared/api/index.js';
import type { StreamPart } from '../adapter.js';
import { newToolCallId } from '../common/tool-call-id.js';
import { convertOpenAIUsage } from './convert-usage.js';
import { mapOpenAIFinishReason } from './map-finish-reason.js';
import type { UpstreamChunk, UpstreamContent, UpstreamToolCallDelta } from './upstream-schemas.js';

export { newToolCallId };

export function toolArgumentsText(value: string | Record<string, unknown> | null | undefined): string {
  if (value == null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The text and the reasoning in an upstream's content: a string is text; an array of parts (Mistral's reasoning
 * models) holds `text` parts and `thinking` parts whose text parts are reasoning.
 */
export function splitContent(content: UpstreamContent): { text: string; reasoning: string } {
  if (content == null) return { text: '', reasoning: '' };
  if (typeof content === 'string') return { text: content, reasoning: '' };
  let text = '';
  let reasoning = '';
  for (const part of content) {
    if (part.type === 'text') text += part.text ?? '';
    if (part.type !== 'thinking' || part.thinking == null) continue;
    reasoning += typeof part.thinking === 'string' ? part.thinking : textOf(part.thinking);
  }
  return { text, reasoning };
}

function textOf(parts: readonly { type: string; text?: string | null }[]): string {
  return parts.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
}

interface StartedCall {
  id: string;
  hasName: boolean;
}

/** Tool-call bookkeeping of one choice. */
class ToolCallNormalizer {
  private readonly calls = new Map<number, StartedCall>();
  private readonly indexById = new Map<string, number>();
  private lastIndex = -1;

  constructor(private readonly createId: () => string) {}

  normalize(fragment: UpstreamToolCallDelta): ToolCallDelta | null {
    const id = fragment.id || undefined;
    const index = this.indexOf(fragment.index ?? undefined, id);
    this.lastIndex = index;
    const name = fragment.function?.name || undefined;
    const args = toolArgumentsText(fragment.function?.arguments);
    const started = this.calls.get(index);
    if (!started) {
      const callId = id ?? this.createId();
      this.calls.set(index, { id: callId, hasName: name !== undefined });
      this.indexById.set(callId, index);
      return { index, id: callId, type: 'function', function: { name: name ?? '', arguments: args } };
    }
    if (name !== undefined && !started.hasName) {
      // The name came after the id: send it once (clients assign names, they do not concatenate them).
      started.hasName = true;
      return { index, function: { name, arguments: args } };
    }
    return args === '' ? null : { index, function: { arguments: args } };
  }

  private indexOf(given: number | undefined, id: string | undefined): number {
    if (given !== undefined) return given;
    if (id !== undefined) return this.indexById.get(id) ?? this.calls.size;
    return Math.max(this.lastIndex, 0);
  }
}

export class OpenAIChunkConverter {
  /** Whether any choice has finished (a stream that ends without [DONE] is complete only then). */
  sawFinish = false;
  private readonly toolCallsByChoice = new Map<number, ToolCallNormalizer>();

  constructor(private readonly createToolCallId: () => string = newToolCallId) {}

  convert(chunk: UpstreamChunk): StreamPart[] {
    const parts: StreamPart[] = [];
    for (const choice of chunk.choices ?? []) {
      const index = choice.index ?? 0;
      const delta = this.convertDelta(index, choice.delta ?? {});
      let finishReason = mapOpenAIFinishReason(choice.finish_reason);
      // Some servers (older Ollama) say `stop` after tool calls; callers' tool loops look for `tool_calls`.
      if (finishReason === 'stop' && this.toolCallsByChoice.has(index)) finishReason = 'tool_calls';
      if (finishReason !== null) this.sawFinish = true;
      const logprobs = choice.logprobs ?? undefined;
      if (Object.keys(delta).length === 0 && finishReason === null && !logprobs) continue;
      const part: StreamPart = { type: 'delta', index, delta };
      if (logprobs) part.logprobs = logprobs;
      if (finishReason !== null) {
        part.finish_reason = finishReason;
        part.native_finish_reason = choice.native_finish_reason ?? choice.finish_reason ?? null;
      }
      parts.push(part);
    }
    if (chunk.usage) parts.push({ type: 'usage', usage: convertOpenAIUsage(chunk.usage) });
    return parts;
  }

  private convertDelta(choiceIndex: number, raw: NonNullable<NonNullable<UpstreamChunk['choices']>[number]['delta']>) {
    const delta: ChunkDelta = {};
    const parts = splitContent(raw.content);
    if (parts.text !== '') delta.content = parts.text;
    if (raw.refusal) delta.refusal = raw.refusal;
    const reasoning = (raw.reasoning || raw.reasoning_content || '') + parts.reasoning;
    if (reasoning) delta.reasoning = reasoning;
    if (raw.reasoning_details && raw.reasoning_details.length > 0) {
      delta.reasoning_details = raw.reasoning_details as ChunkDelta['reasoning_details'];
    }
    // Citations of what a web search found (OpenRouter's web plugin sends them on a delta) travel as sent.
    const annotations: unknown = raw.annotations;
    if (Array.isArray(annotations) && annotations.length > 0) delta.annotations = annotations;
    if (raw.tool_calls && raw.tool_calls.length > 0) {
      let normalizer = this.toolCallsByChoice.get(choiceIndex);
      if (!normalizer) {
        normalizer = new ToolCallNormalizer(this.createToolCallId);
        this.toolCallsByChoice.set(choiceIndex, normalizer);
      }
      const toolCalls: ToolCallDelta[] = [];
      for (const fragment of raw.tool_calls) {
        const normalized = normalizer.normalize(fragment);
        if (normalized) toolCalls.push(normalized);
      }
      if (toolCalls.length > 0) delta.tool_calls = toolCalls;
    }
    return delta;
  }
}
