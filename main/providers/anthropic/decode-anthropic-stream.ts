// Anthropic's SSE events → StreamParts. Content blocks are numbered across text, thinking and tool use; our tool
// calls are numbered among tool calls only (0, 1, 2… in the turn), so the block index is never a tool-call index.
// Thinking becomes `reasoning` + `reasoning_details` items (text pieces, then the signature as a last item without
// text; redacted thinking as `reasoning.encrypted`), each reasoning block with its own detail `index`. A web search
// Anthropic ran is one `web_search_calls` delta when its results arrive (its query streamed before them).
// The finish and the usage are sent at `message_stop`; a stream that ends before it was cut short.

import type { ChunkDelta, ReasoningDetail } from '../../../shared/api/index.js';
import type { StreamPart } from '../adapter.js';
import type { SecretRedactor } from '../http/redact.js';
import { malformedUpstream, parseEventJson } from '../http/upstream-errors.js';
import {
  anthropicReasoningFormat,
  anthropicStreamEventSchemas,
  type AnthropicBlock,
  type AnthropicCitation,
  type AnthropicUsage,
} from './anthropic-api.js';
import { anthropicUrlCitations } from './convert-anthropic-message.js';
import { convertAnthropicUsage } from './convert-anthropic-usage.js';
import { streamedWebSearchQuery, webSearchCallOf, webSearchQueryOf } from './convert-anthropic-web-search.js';
import { mapAnthropicStreamError } from './map-anthropic-error.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

export interface AnthropicDecoderContext {
  providerId: string;
  /** Scrubbed from anything quoted back to the caller. */
  secrets: SecretRedactor;
  /** False when the caller asked `reasoning.exclude`: thinking is requested but not passed on. */
  emitReasoning: boolean;
}

/** One SSE event: its `event:` name (if any) and its `data:`. */
export interface SseEvent {
  event?: string;
  data: string;
}

type OpenBlock =
  | { kind: 'other' }
  /** A web search the model asked for; its query streams as JSON. */
  | { kind: 'web-search'; id: string; input: string }
  /** Where its text starts in the answer, and its citations, sent as annotations when it stops. */
  | { kind: 'text'; start: number; citations: AnthropicCitation[] }
  | { kind: 'thinking'; reasoningIndex: number }
  | { kind: 'tool'; toolIndex: number; sentArguments: boolean };

export class AnthropicStreamDecoder {
  private readonly blocks = new Map<number, OpenBlock>();
  private toolCalls = 0;
  /** Characters of content sent so far: where the next text block starts, for its citations. */
  private contentLength = 0;
  private reasoningBlocks = 0;
  /** The queries of the web searches so far, by tool-use id, for the results that follow them. */
  private readonly searchQueries = new Map<string, string>();
  private usage: AnthropicUsage = {};
  private stopReason: string | null = null;
  private stopped = false;

  constructor(private readonly context: AnthropicDecoderContext) {}

  /** True once `message_stop` arrived; later events are ignored. */
  get done(): boolean {
    return this.stopped;
  }

  /** The parts for one event. Throws an ApiError for an `error` event or an event we cannot read. */
  accept(event: SseEvent): StreamPart[] {
    if (this.stopped) return [];
    const data = event.data.trim();
    if (data === '') return [];
    const json = parseEventJson(data, this.context.providerId, this.context.secrets);
    const type = (json as { type?: unknown } | null)?.type ?? event.event;
    switch (type) {
      case 'error':
        throw mapAnthropicStreamError(this.context.providerId, json, this.context.secrets);
      case 'message_start': {
        const usage = this.parse('message_start', json, data).message.usage;
        if (usage) this.usage = { ...this.usage, ...definedFields(usage) };
        return [];
      }
      case 'content_block_start': {
        const start = this.parse('content_block_start', json, data);
        return this.startBlock(start.index, start.content_block);
      }
      case 'content_block_delta': {
        const { index, delta } = this.parse('content_block_delta', json, data);
        return this.blockDelta(index, delta);
      }
      case 'content_block_stop':
        return this.stopBlock(this.parse('content_block_stop', json, data).index);
      case 'message_delta': {
        const messageDelta = this.parse('message_delta', json, data);
        if (messageDelta.delta?.stop_reason) this.stopReason = messageDelta.delta.stop_reason;
        // usage.output_tokens is cumulative; later fields replace earlier ones.
        if (messageDelta.usage) this.usage = { ...this.usage, ...definedFields(messageDelta.usage) };
        return [];
      }
      case 'message_stop':
        this.stopped = true;
        return [
          {
            type: 'delta',
            index: 0,
            delta: {},
            finish_reason: mapAnthropicFinishReason(this.stopReason),
            native_finish_reason: this.stopReason,
          },
          { type: 'usage', usage: convertAnthropicUsage(this.usage) },
        ];
      default: // ping, and event types added later
        return [];
    }
  }

  /** Call when the body ended: an ApiError when `message_stop` never came (the stream was cut short). */
  end(): void {
    if (!this.stopped) throw this.malformed('ended the stream before message_stop (truncated)');
  }

  private startBlock(index: number, block: AnthropicBlock): StreamPart[] {
    switch (block.type) {
      case 'text':
        this.blocks.set(index, { kind: 'text', start: this.contentLength, citations: [...(block.citations ?? [])] });
        return block.text ? [this.content(block.text)] : [];
      case 'thinking': {
        const reasoningIndex = this.reasoningBlocks++;
        this.blocks.set(index, { kind: 'thinking', reasoningIndex });
        return block.thinking ? this.thinkingText(reasoningIndex, block.thinking) : [];
      }
      case 'redacted_thinking': {
        const reasoningIndex = this.reasoningBlocks++;
        this.blocks.set(index, { kind: 'other' });
        if (!block.data || !this.context.emitReasoning) return [];
        return [this.reasoningDetail({ type: 'reasoning.encrypted', data: block.data, index: reasoningIndex })];
      }
      case 'tool_use': {
        const toolIndex = this.toolCalls++;
        this.blocks.set(index, { kind: 'tool', toolIndex, sentArguments: false });
        return [
          this.part({
            tool_calls: [
              {
                index: toolIndex,
                id: block.id ?? '',
                type: 'function',
                function: { name: block.name ?? '', arguments: '' },
              },
            ],
          }),
        ];
      }
      case 'server_tool_use': {
        const query = webSearchQueryOf(block);
        if (query !== null && block.id) {
          this.searchQueries.set(block.id, query);
          this.blocks.set(index, { kind: 'web-search', id: block.id, input: '' });
        } else {
          this.blocks.set(index, { kind: 'other' });
        }
        return [];
      }
      case 'web_search_tool_result':
        this.blocks.set(index, { kind: 'other' });
        return [this.part({ web_search_calls: [webSearchCallOf(block, this.searchQueries)] })];
      default: // other server tools and block types added later
        this.blocks.set(index, { kind: 'other' });
        return [];
    }
  }

  private blockDelta(
    index: number,
    delta: {
      type: string;
      text?: string | null;
      thinking?: string | null;
      signature?: string | null;
      partial_json?: string | null;
      citation?: AnthropicCitation | null;
    },
  ): StreamPart[] {
    const block = this.blocks.get(index);
    if (!block) throw this.malformed(`sent a delta for content block ${index}, which never started`);
    switch (delta.type) {
      case 'text_delta':
        return delta.text ? [this.content(delta.text)] : [];
      case 'citations_delta':
        if (block.kind === 'text' && delta.citation) block.citations.push(delta.citation);
        return [];
      case 'thinking_delta':
        if (block.kind !== 'thinking' || !delta.thinking) return [];
        return this.thinkingText(block.reasoningIndex, delta.thinking);
      case 'signature_delta':
        if (block.kind !== 'thinking' || !delta.signature || !this.context.emitReasoning) return [];
        return [
          this.reasoningDetail({ type: 'reasoning.text', signature: delta.signature, index: block.reasoningIndex }),
        ];
      case 'input_json_delta':
        if (block.kind === 'web-search' && delta.partial_json) block.input += delta.partial_json;
        if (block.kind !== 'tool' || !delta.partial_json) return [];
        block.sentArguments = true;
        return [this.part({ tool_calls: [{ index: block.toolIndex, function: { arguments: delta.partial_json } }] })];
      default:
        return [];
    }
  }

  private stopBlock(index: number): StreamPart[] {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    if (block?.kind === 'web-search') {
      const query = streamedWebSearchQuery(block.input);
      if (query) this.searchQueries.set(block.id, query);
    }
    // A call without parameters streams no input at all; callers parse the arguments, so they get `{}`.
    if (block?.kind === 'tool' && !block.sentArguments) {
      return [this.part({ tool_calls: [{ index: block.toolIndex, function: { arguments: '{}' } }] })];
    }
    if (block?.kind === 'text') {
      const annotations = anthropicUrlCitations(block.citations, block.start, this.contentLength);
      if (annotations.length > 0) return [this.part({ annotations })];
    }
    return [];
  }

  private content(text: string): StreamPart {
    this.contentLength += text.length;
    return this.part({ content: text });
  }

  private thinkingText(reasoningIndex: number, text: string): StreamPart[] {
    if (!this.context.emitReasoning) return [];
    return [
      this.part({
        reasoning: text,
        reasoning_details: [{ type: 'reasoning.text', text, format: anthropicReasoningFormat, index: reasoningIndex }],
      }),
    ];
  }

  private reasoningDetail(detail: Omit<ReasoningDetail, 'format'>): StreamPart {
    return this.part({ reasoning_details: [{ ...detail, format: anthropicReasoningFormat } as ReasoningDetail] });
  }

  private part(delta: ChunkDelta): StreamPart {
    return { type: 'delta', index: 0, delta };
  }

  private parse<K extends keyof typeof anthropicStreamEventSchemas>(
    type: K,
    json: unknown,
    data: string,
  ): ReturnType<(typeof anthropicStreamEventSchemas)[K]['parse']> {
    const parsed = anthropicStreamEventSchemas[type].safeParse(json);
    if (!parsed.success) throw this.malformed(`sent a ${type} event we cannot read`, data);
    return parsed.data as ReturnType<(typeof anthropicStreamEventSchemas)[K]['parse']>;
  }

  private malformed(what: string, raw?: string) {
    return malformedUpstream(this.context.providerId, what, raw, this.context.secrets);
  }
}

/** The fields that are set: a later usage object must not erase counts with nulls. */
function definedFields(usage: AnthropicUsage): AnthropicUsage {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => value != null)) as AnthropicUsage;
}
