// The chunks of a translated generation → Anthropic's event stream, as the Messages API sends it: message_start,
// then for each content block content_block_start / content_block_delta… / content_block_stop (thinking with
// thinking_delta and signature_delta, text with text_delta, tool_use with input_json_delta), then message_delta
// (stop_reason, usage) and message_stop. `ping` keeps the connection alive; a failure is Anthropic's `error` event,
// after which nothing more is sent. Blocks are numbered in the order they open; one block is open at a time.

import {
  ApiError,
  type ChatCompletionChunk,
  type ChunkDelta,
  type ReasoningDetail,
  type Usage,
} from '../../../../shared/api/index.js';
import { anthropicErrorType } from '../../http/error-shapes.js';
import type { StreamEncoder } from '../../http/exchange.js';
import { anthropicStopReason, anthropicUsageOf, type StopReason } from './message-object.js';
import { carriedDetails, carrierSignature, isAnthropicDetail } from './thinking-blocks.js';

type OpenBlock =
  | { kind: 'thinking'; signed: boolean; carried: ReasoningDetail[]; reasoningIndex: unknown }
  | { kind: 'text' }
  | { kind: 'redacted_thinking' }
  | { kind: 'tool_use'; toolIndex: number };

export function anthropicEvent(type: string, payload: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
}

export const anthropicPing = anthropicEvent('ping', {});

export class AnthropicStreamEncoder implements StreamEncoder {
  private started = false;
  private failed = false;
  private blockCount = 0;
  private open: OpenBlock | null = null;
  private stopReason: StopReason | null = null;
  private usage: Usage | null = null;
  private readonly closedTools = new Set<number>();

  /** `id`: the message id; `model`: the model as the answer names it. */
  constructor(
    private readonly id: string,
    private readonly model: string,
  ) {}

  chunk(chunk: ChatCompletionChunk): string {
    if (this.failed) return '';
    let text = this.start(chunk.model);
    if (chunk.usage) this.usage = chunk.usage;
    if (chunk.error) {
      this.failed = true;
      const error = new ApiError(chunk.error.code, chunk.error.message);
      return text + this.closeBlock() + anthropicErrorEvent(error);
    }
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue;
      text += this.delta(choice.delta);
      if (choice.finish_reason) {
        this.stopReason = anthropicStopReason(choice.finish_reason, choice.native_finish_reason);
      }
    }
    return text;
  }

  end(): string {
    if (this.failed) return '';
    const usage = anthropicUsageOf(this.usage);
    return (
      this.start(this.model) +
      this.closeBlock() +
      anthropicEvent('message_delta', {
        delta: { stop_reason: this.stopReason ?? 'end_turn', stop_sequence: null },
        usage,
      }) +
      anthropicEvent('message_stop', {})
    );
  }

  keepAlive(): string {
    return anthropicPing;
  }

  private start(model: string): string {
    if (this.started) return '';
    this.started = true;
    const message = {
      id: this.id,
      type: 'message',
      role: 'assistant',
      model: model || this.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
    return anthropicEvent('message_start', { message });
  }

  private delta(delta: ChunkDelta): string {
    let text = '';
    text += this.reasoning(delta);
    const content = (delta.content ?? '') + (delta.refusal ?? '');
    if (content !== '') {
      if (this.open?.kind !== 'text') text += this.openBlock({ kind: 'text' }, { type: 'text', text: '' });
      text += this.blockDelta({ type: 'text_delta', text: content });
    }
    for (const call of delta.tool_calls ?? []) {
      const isOpen = this.open?.kind === 'tool_use' && this.open.toolIndex === call.index;
      if (!isOpen) {
        // A fragment of a call already closed cannot be sent any more: Anthropic's blocks do not reopen.
        if (this.closedTools.has(call.index)) continue;
        text += this.openBlock(
          { kind: 'tool_use', toolIndex: call.index },
          { type: 'tool_use', id: call.id ?? '', name: call.function?.name ?? '', input: {} },
        );
      }
      const fragment = call.function?.arguments ?? '';
      if (fragment !== '') text += this.blockDelta({ type: 'input_json_delta', partial_json: fragment });
    }
    return text;
  }

  private reasoning(delta: ChunkDelta): string {
    const details = delta.reasoning_details ?? [];
    const anthropicDetails = details.filter(isAnthropicDetail);
    const carried = carriedDetails(details);
    // Anthropic's own thinking streams its text in its details; other providers' in `reasoning`.
    const thinkingText =
      anthropicDetails.length > 0
        ? anthropicDetails.map((detail) => (detail.type === 'reasoning.text' ? (detail.text ?? '') : '')).join('')
        : (delta.reasoning ?? '');
    let text = '';
    for (const detail of anthropicDetails) {
      if (detail.type === 'reasoning.encrypted' && detail.data) {
        text += this.closeBlock();
        text += this.openBlock({ kind: 'redacted_thinking' }, { type: 'redacted_thinking', data: detail.data });
        text += this.closeBlock();
        continue;
      }
      if (detail.type !== 'reasoning.text') continue;
      const open = this.open;
      if (open?.kind !== 'thinking' || open.signed || open.reasoningIndex !== detail.index) {
        text += this.openThinking(detail.index);
      }
      if (detail.text) text += this.blockDelta({ type: 'thinking_delta', thinking: detail.text });
      if (detail.signature) {
        text += this.blockDelta({ type: 'signature_delta', signature: detail.signature });
        (this.open as Extract<OpenBlock, { kind: 'thinking' }>).signed = true;
      }
    }
    if (anthropicDetails.length === 0 && (thinkingText !== '' || carried.length > 0)) {
      if (this.open?.kind !== 'thinking' || this.open.signed) text += this.openThinking(undefined);
      if (thinkingText !== '') text += this.blockDelta({ type: 'thinking_delta', thinking: thinkingText });
    }
    if (carried.length > 0 && this.open?.kind === 'thinking') this.open.carried.push(...carried);
    return text;
  }

  private openThinking(reasoningIndex: unknown): string {
    return this.openBlock(
      { kind: 'thinking', signed: false, carried: [], reasoningIndex },
      { type: 'thinking', thinking: '', signature: '' },
    );
  }

  private openBlock(block: OpenBlock, contentBlock: Record<string, unknown>): string {
    const text = this.closeBlock();
    this.open = block;
    return text + anthropicEvent('content_block_start', { index: this.blockCount, content_block: contentBlock });
  }

  private blockDelta(delta: Record<string, unknown>): string {
    return anthropicEvent('content_block_delta', { index: this.blockCount, delta });
  }

  private closeBlock(): string {
    const open = this.open;
    if (!open) return '';
    let text = '';
    if (open.kind === 'thinking' && open.carried.length > 0) {
      text += this.blockDelta({ type: 'signature_delta', signature: carrierSignature(open.carried) });
    }
    if (open.kind === 'tool_use') this.closedTools.add(open.toolIndex);
    this.open = null;
    text += anthropicEvent('content_block_stop', { index: this.blockCount });
    this.blockCount += 1;
    return text;
  }
}

/** Anthropic's error event for a failure once a stream is open. */
export function anthropicErrorEvent(error: ApiError): string {
  return anthropicEvent('error', { error: { type: anthropicErrorType(error.status), message: error.message } });
}
