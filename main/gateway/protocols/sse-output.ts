// A generation's stream on the wire: the StreamOutput (chat/stream-relay.ts) over a Fastify reply, hijacked once it
// opens. Chat completions write each chunk as `data: <json>` and end with `[DONE]`; an agent protocol supplies an
// encoder that turns each chunk into its own events (Anthropic's `event:` lines, the Responses API's numbered
// events, Gemini's responses), its keep-alive and its ending.

import type { FastifyReply } from 'fastify';
import type { ChatCompletionChunk } from '../../../shared/api/index.js';
import { processingComment, type StreamOutput } from '../chat/stream-relay.js';
import { SseWriter } from '../sse-writer.js';

/** Turns the chunks of a generation into one protocol's SSE text. Stateful: one encoder per stream. */
export interface StreamEncoder {
  /** The SSE text for one chunk (may be '' when the chunk carries nothing the protocol shows). */
  chunk(chunk: ChatCompletionChunk): string;
  /** The SSE text that ends the stream, after the last chunk (an error chunk included). */
  end(): string;
  /** The SSE text sent while the upstream is silent. */
  keepAlive(): string;
}

/** The chat-completions stream itself: one `data:` line a chunk, `[DONE]` at the end. */
export const chatCompletionsEncoder: StreamEncoder = {
  chunk: (chunk) => `data: ${JSON.stringify(chunk)}\n\n`,
  end: () => 'data: [DONE]\n\n',
  keepAlive: () => `: ${processingComment}\n\n`,
};

export function sseOutput(reply: FastifyReply, keepAliveMs: number, encoder: StreamEncoder): StreamOutput {
  const writer = new SseWriter(reply.raw);
  return {
    get opened() {
      return writer.opened;
    },
    open() {
      reply.hijack();
      writer.open();
      writer.keepAlive(keepAliveMs, () => encoder.keepAlive());
    },
    data: (chunk) => writer.raw(encoder.chunk(chunk)),
    comment: () => writer.raw(encoder.keepAlive()),
    end: () => writer.end(encoder.end()),
    abandon() {
      writer.dispose();
      reply.raw.destroy();
    },
  };
}
