// An OpenAI-compatible SSE body → StreamParts. SSE framing is eventsource-parser's job (never split lines by
// hand); this file decides what each event means: `[DONE]` ends, JSON chunks are converted, anything else is a
// 502 thrown mid-stream, and a body that stops without `[DONE]` and without a finish_reason was truncated.

import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { ApiError } from '../../../shared/api/index.js';
import type { StreamPart } from '../adapter.js';
import { OpenAIChunkConverter } from './convert-chunk.js';
import { mapUpstreamErrorPayload, redactSecret } from './map-error.js';
import { upstreamChunkSchema } from './upstream-schemas.js';

/** One SSE event larger than this is not a chat chunk: the upstream is broken. */
const maxEventChars = 16 * 1024 * 1024;

export interface DecoderContext {
  providerId: string;
  /** Scrubbed from anything quoted back to the caller. */
  apiKey: string | null;
}

export class OpenAIStreamDecoder {
  private readonly parser: EventSourceParser;
  private readonly converter: OpenAIChunkConverter;
  private pending: StreamPart[] = [];
  private sawDone = false;
  /** Set when the stream went wrong; the parts decoded before it are still handed out first. */
  failure: ApiError | null = null;

  constructor(
    private readonly context: DecoderContext,
    converter: OpenAIChunkConverter = new OpenAIChunkConverter(),
  ) {
    this.converter = converter;
    this.parser = createParser({
      maxBufferSize: maxEventChars,
      onEvent: (event) => this.onEvent(event),
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.fail(`sent an SSE event over ${maxEventChars} characters`);
      },
    });
  }

  /** True once `data: [DONE]` arrived; later bytes are ignored. */
  get done(): boolean {
    return this.sawDone;
  }

  /** Feeds a piece of the body; returns the parts it completed. Check `failure` afterwards. */
  push(text: string): StreamPart[] {
    if (!this.sawDone && !this.failure) this.parser.feed(text);
    return this.take();
  }

  /** Call when the body ended: a body without `[DONE]` and without a finish_reason was cut short. */
  end(): StreamPart[] {
    if (!this.sawDone && !this.failure) this.parser.feed('\n\n'); // dispatches a last event without its blank line
    if (!this.sawDone && !this.converter.sawFinish) this.fail('ended the stream before it finished (truncated)');
    return this.take();
  }

  private take(): StreamPart[] {
    const parts = this.pending;
    this.pending = [];
    return parts;
  }

  private fail(what: string, raw?: string): void {
    if (this.failure) return;
    const metadata: Record<string, unknown> = { provider_name: this.context.providerId };
    if (raw !== undefined) metadata.raw = redactSecret(raw.slice(0, 500), this.context.apiKey);
    this.failure = new ApiError(502, `Provider "${this.context.providerId}" ${what}.`, metadata);
  }

  private onEvent(event: EventSourceMessage): void {
    if (this.sawDone || this.failure) return;
    const data = event.data.trim();
    if (data === '[DONE]') {
      this.sawDone = true;
      return;
    }
    if (event.event !== undefined && event.event !== 'message' && event.event !== 'error') return;
    if (data === '') return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      this.fail('sent a stream event that is not JSON', data);
      return;
    }
    if (event.event === 'error' || (json !== null && typeof json === 'object' && 'error' in json && json.error)) {
      const payload = (json as { error?: unknown }).error ?? json;
      this.failure = mapUpstreamErrorPayload(this.context.providerId, payload, this.context.apiKey);
      return;
    }
    const chunk = upstreamChunkSchema.safeParse(json);
    if (!chunk.success) {
      this.fail('sent a stream chunk that is not a chat.completion.chunk', data);
      return;
    }
    this.pending.push(...this.converter.convert(chunk.data));
  }
}

/** Decodes a whole body; stops at `[DONE]` without waiting for the upstream to close. Throws ApiError(502). */
export async function* decodeOpenAIStream(
  body: AsyncIterable<string | Uint8Array>,
  context: DecoderContext,
): AsyncGenerator<StreamPart, void, undefined> {
  const decoder = new OpenAIStreamDecoder(context);
  const utf8 = new TextDecoder(); // `stream: true` keeps a character split between two chunks intact
  for await (const piece of body) {
    yield* decoder.push(typeof piece === 'string' ? piece : utf8.decode(piece, { stream: true }));
    if (decoder.failure) throw decoder.failure;
    if (decoder.done) return;
  }
  yield* decoder.end();
  if (decoder.failure) throw decoder.failure;
}
