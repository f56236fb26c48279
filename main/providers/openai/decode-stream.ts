// An OpenAI-compatible stream's SSE events → StreamParts. SSE framing is the shared decodeSseEvents' job (never
// split lines by hand); this file decides what each event means: `[DONE]` ends, JSON chunks are converted,
// anything else is a 502 thrown mid-stream, and a body that stops without `[DONE]` and without a finish_reason
// was truncated.

import type { EventSourceMessage } from 'eventsource-parser';
import type { StreamPart } from '../adapter.js';
import type { SecretRedactor } from '../http/redact.js';
import { malformedUpstream, mapUpstreamErrorPayload } from '../http/upstream-errors.js';
import { OpenAIChunkConverter } from './convert-chunk.js';
import { upstreamChunkSchema } from './upstream-schemas.js';

export interface DecoderContext {
  providerId: string;
  /** Scrubbed from anything quoted back to the caller. */
  secrets: SecretRedactor;
}

export class OpenAIStreamDecoder {
  private sawDone = false;

  constructor(
    private readonly context: DecoderContext,
    private readonly converter: OpenAIChunkConverter = new OpenAIChunkConverter(),
  ) {}

  /** True once `data: [DONE]` arrived; later events are ignored. */
  get done(): boolean {
    return this.sawDone;
  }

  /** The parts of one event. Throws an UpstreamError for an error event or one that is not a chunk. */
  accept(event: EventSourceMessage): StreamPart[] {
    if (this.sawDone) return [];
    const data = event.data.trim();
    if (data === '[DONE]') {
      this.sawDone = true;
      return [];
    }
    if (event.event !== undefined && event.event !== 'message' && event.event !== 'error') return [];
    if (data === '') return [];
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw this.malformed('sent a stream event that is not JSON', data);
    }
    if (event.event === 'error' || (json !== null && typeof json === 'object' && 'error' in json && json.error)) {
      const payload = (json as { error?: unknown }).error ?? json;
      throw mapUpstreamErrorPayload(this.context.providerId, payload, this.context.secrets);
    }
    const chunk = upstreamChunkSchema.safeParse(json);
    if (!chunk.success) throw this.malformed('sent a stream chunk that is not a chat.completion.chunk', data);
    return this.converter.convert(chunk.data);
  }

  /** Call when the body ended: a body without `[DONE]` and without a finish_reason was cut short. */
  end(): void {
    if (!this.sawDone && !this.converter.sawFinish) {
      throw this.malformed('ended the stream before it finished (truncated)');
    }
  }

  private malformed(what: string, raw?: string) {
    return malformedUpstream(this.context.providerId, what, raw, this.context.secrets);
  }
}

/** Decodes a stream's events; stops at `[DONE]` without waiting for the upstream to close. Throws UpstreamError. */
export async function* decodeOpenAIStream(
  events: AsyncIterable<EventSourceMessage>,
  context: DecoderContext,
): AsyncGenerator<StreamPart, void, undefined> {
  const decoder = new OpenAIStreamDecoder(context);
  for await (const event of events) {
    yield* decoder.accept(event);
    if (decoder.done) return;
  }
  decoder.end();
}
