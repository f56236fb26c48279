// An OpenAI-compatible stream's SSE events → StreamParts. SSE framing is the shared decodeSseEvents' job (never
// split lines by hand); this file decides what each event means: `[DONE]` ends, JSON chunks are converted, an
// error event ends the stream with its error (after the usage it carries: OpenRouter reports what the failed
// generation used there), anything else is a 502 thrown mid-stream, and a body that stops without `[DONE]` and
// without a finish_reason was truncated.

import type { EventSourceMessage } from 'eventsource-parser';
import type { StreamPart } from '../adapter.js';
import type { SecretRedactor } from '../http/redact.js';
import {
  malformedUpstream,
  mapUpstreamErrorPayload,
  parseEventJson,
  type UpstreamError,
} from '../http/upstream-errors.js';
import { OpenAIChunkConverter } from './convert-chunk.js';
import { convertOpenAIUsage } from './convert-usage.js';
import { isPlainChunk } from './plain-chunk.js';
import { textDeltaParts } from './text-delta-event.js';
import { upstreamChunkSchema, upstreamUsageSchema, type UpstreamChunk } from './upstream-schemas.js';

export interface DecoderContext {
  providerId: string;
  /** Scrubbed from anything quoted back to the caller. */
  secrets: SecretRedactor;
}

export class OpenAIStreamDecoder {
  private sawDone = false;
  private reported: UpstreamError | null = null;
  private sawDelta = false;

  constructor(
    private readonly context: DecoderContext,
    private readonly converter: OpenAIChunkConverter = new OpenAIChunkConverter(),
  ) {}

  /** True once `data: [DONE]` or an error event arrived; later events are ignored. */
  get done(): boolean {
    return this.sawDone || this.reported !== null;
  }

  /** The error the upstream reported in the stream, once it did: the stream failed with it. */
  get failure(): UpstreamError | null {
    return this.reported;
  }

  /**
   * The parts of one event. An error event after the first delta gives its usage (if any) and sets `failure`; an
   * error event before it, and an event that is not a chunk, throw an UpstreamError.
   */
  accept(event: EventSourceMessage): StreamPart[] {
    if (this.done) return [];
    const data = event.data.trim();
    if (data === '[DONE]') {
      this.sawDone = true;
      return [];
    }
    if (event.event !== undefined && event.event !== 'message' && event.event !== 'error') return [];
    if (data === '') return [];
    const textParts = event.event === 'error' ? null : textDeltaParts(data);
    if (textParts) {
      if (textParts.length > 0) this.sawDelta = true;
      return textParts;
    }
    const json = parseEventJson(data, this.context.providerId, this.context.secrets);
    if (event.event === 'error' || (json !== null && typeof json === 'object' && 'error' in json && json.error)) {
      const { error, usage } = json as { error?: unknown; usage?: unknown };
      const failure = mapUpstreamErrorPayload(this.context.providerId, error ?? json, this.context.secrets);
      // Before anything was generated the failure is the whole answer (and another attempt may still succeed).
      if (!this.sawDelta) throw failure;
      this.reported = failure;
      const reportedUsage = upstreamUsageSchema.nullish().safeParse(usage).data;
      return reportedUsage ? [{ type: 'usage', usage: convertOpenAIUsage(reportedUsage) }] : [];
    }
    const chunk = isPlainChunk(json) ? json : this.parseChunk(json, data);
    const parts = this.converter.convert(chunk);
    if (parts.some((part) => part.type === 'delta')) this.sawDelta = true;
    return parts;
  }

  /** Call when the body ended: a body without `[DONE]` and without a finish_reason was cut short. */
  end(): void {
    if (!this.sawDone && !this.converter.sawFinish) {
      throw this.malformed('ended the stream before it finished (truncated)');
    }
  }

  private parseChunk(json: unknown, data: string): UpstreamChunk {
    const chunk = upstreamChunkSchema.safeParse(json);
    if (!chunk.success) throw this.malformed('sent a stream chunk that is not a chat.completion.chunk', data);
    return chunk.data;
  }

  private malformed(what: string, raw?: string) {
    return malformedUpstream(this.context.providerId, what, raw, this.context.secrets);
  }
}

/**
 * Decodes a stream's events; stops at `[DONE]` without waiting for the upstream to close. Throws UpstreamError,
 * also the one an error event reported, after that event's usage.
 */
export async function* decodeOpenAIStream(
  events: AsyncIterable<EventSourceMessage>,
  context: DecoderContext,
): AsyncGenerator<StreamPart, void, undefined> {
  const decoder = new OpenAIStreamDecoder(context);
  for await (const event of events) {
    yield* decoder.accept(event);
    if (decoder.failure) throw decoder.failure;
    if (decoder.done) return;
  }
  decoder.end();
}
