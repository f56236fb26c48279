// Puts one streamed reply back together from its chunks: text, reasoning, reasoning details, tool calls (streamed
// as fragments by index, OpenAI's convention), usage, and a mid-stream error (spec 7.3).

import type { ChatCompletionChunk, ReasoningDetail, ToolCall, Usage } from '../../shared/api/index.js';
import { explainFailure } from './chat-error.js';

export interface ChunkDeltas {
  text: string;
  reasoning: string;
}

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
}

export class ReplyAccumulator {
  text = '';
  reasoning = '';
  usage: Usage | null = null;
  finishReason: string | null = null;
  /** Set when the stream ended with finish_reason `error`. */
  error: string | null = null;
  private readonly details: ReasoningDetail[] = [];
  private readonly toolCallsByIndex = new Map<number, PartialToolCall>();

  /** Takes one chunk; returns the new text and reasoning in it. */
  accept(chunk: ChatCompletionChunk): ChunkDeltas {
    const deltas: ChunkDeltas = { text: '', reasoning: '' };
    if (chunk.usage) this.usage = chunk.usage;
    if (chunk.error) {
      const provider = chunk.error.metadata?.provider_name;
      this.error = explainFailure({
        status: chunk.error.code,
        message: chunk.error.message || 'The model failed mid-answer.',
        provider: typeof provider === 'string' ? provider : null,
      });
    }
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== 0) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string') deltas.text += delta.content;
      if (typeof delta.reasoning === 'string') deltas.reasoning += delta.reasoning;
      for (const detail of delta.reasoning_details ?? []) this.addDetail(detail);
      for (const fragment of delta.tool_calls ?? []) {
        const call = this.toolCallsByIndex.get(fragment.index) ?? { id: '', name: '', arguments: '' };
        if (fragment.id) call.id = fragment.id;
        if (fragment.function?.name) call.name += fragment.function.name;
        if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
        this.toolCallsByIndex.set(fragment.index, call);
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
      if (choice.finish_reason === 'error' && !this.error) this.error = 'The model failed mid-answer.';
    }
    this.text += deltas.text;
    this.reasoning += deltas.reasoning;
    return deltas;
  }

  get reasoningDetails(): ReasoningDetail[] | null {
    return this.details.length > 0 ? this.details : null;
  }

  /** The complete tool calls, in index order; a call without a name is dropped (nothing could run it). */
  toolCalls(): ToolCall[] {
    return [...this.toolCallsByIndex.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, call]) => call.name !== '')
      .map(([index, call]) => ({
        id: call.id || `call_${index}`,
        type: 'function' as const,
        function: { name: call.name, arguments: call.arguments },
      }));
  }

  /** Details arrive in pieces: text of the same block (type and index) is joined, other fields are kept. */
  private addDetail(detail: ReasoningDetail): void {
    const same = this.details.find(
      (existing) => existing.type === detail.type && existing.index !== undefined && existing.index === detail.index,
    );
    if (!same) {
      this.details.push({ ...detail });
      return;
    }
    for (const field of ['text', 'summary', 'data', 'signature'] as const) {
      const piece = detail[field];
      if (typeof piece === 'string') same[field] = `${typeof same[field] === 'string' ? same[field] : ''}${piece}`;
    }
    for (const [key, value] of Object.entries(detail)) {
      if (!['text', 'summary', 'data', 'signature'].includes(key) && value !== undefined) same[key] = value;
    }
  }
}
