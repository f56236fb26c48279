// A generation's stream on the wire: the StreamOutput (stream-output.ts) over a Fastify reply, hijacked once it
// opens. Chat completions write each chunk as `data: <json>` and end with `[DONE]`; an agent protocol supplies an
// encoder that turns each chunk into its own events (Anthropic's `event:` lines, the Responses API's numbered
// events, Gemini's responses), its keep-alive and its ending.

import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { ChatCompletionChunk } from '../../../shared/api/index.js';
import { SseWriter } from './sse-writer.js';
import { processingKeepAlive, type RawStreamOutput, type StreamEncoder, type StreamOutput } from './exchange.js';

/** What every stream of a route needs of the gateway's settings (the pipeline's RequestContext has them). */
export interface StreamSettings {
  /** Keep-alives after this much silence; 0 = none. */
  keepAliveMs: number;
  /** A caller that takes nothing of its stream for this long has it ended; 0 = never. */
  stalledCallerMs: number;
  deps: { logger: Logger };
}

/** An SseWriter on the reply that ends a stalled caller's stream, and says so in the log. */
export function sseWriter(reply: FastifyReply, settings: StreamSettings): SseWriter {
  return new SseWriter(reply.raw, {
    stalledCallerMs: settings.stalledCallerMs,
    onStalled: (ms) =>
      settings.deps.logger.warn({ stalledSeconds: ms / 1000 }, 'caller stopped reading its stream: stream ended'),
  });
}

/** The fields every chunk of a stream has first, and the same: serialized once per stream. */
const sharedFields = ['id', 'object', 'created', 'model', 'provider'] as const;
const sharedFieldNames: string[] = [...sharedFields];

/**
 * A chunk without the web searches the upstream ran (`delta.web_search_calls`, for the Responses API): chat
 * completions carry what the searches found as annotations. Null when nothing is left to send.
 */
function withoutWebSearches(chunk: ChatCompletionChunk): ChatCompletionChunk | null {
  if (!chunk.choices.some((choice) => choice.delta.web_search_calls)) return chunk;
  const choices = chunk.choices.flatMap((choice) => {
    const { web_search_calls: _searches, ...delta } = choice.delta;
    const empty = Object.keys(delta).length === 0 && !choice.finish_reason && !choice.logprobs;
    return empty ? [] : [{ ...choice, delta }];
  });
  return choices.length > 0 || chunk.usage || chunk.error ? { ...chunk, choices } : null;
}

/**
 * The chat-completions stream itself: one `data:` line a chunk, `[DONE]` at the end. The text is JSON.stringify's;
 * the fields a stream's chunks share are serialized once, the rest (choices, usage, error) per chunk.
 */
export function chatCompletionsEncoder(): StreamEncoder {
  let shared: ChatCompletionChunk | null = null;
  let sharedJson = '';
  const json = (chunk: ChatCompletionChunk): string => {
    const keys = Object.keys(chunk);
    if (sharedFields.some((field, index) => keys[index] !== field)) return JSON.stringify(chunk);
    if (!shared || sharedFields.some((field) => chunk[field] !== shared![field])) {
      shared = chunk;
      sharedJson = JSON.stringify(chunk, sharedFieldNames).slice(0, -1);
    }
    let text = sharedJson;
    for (let index = sharedFields.length; index < keys.length; index += 1) {
      const key = keys[index]!;
      const value = JSON.stringify((chunk as unknown as Record<string, unknown>)[key]);
      if (value !== undefined) text += `,${JSON.stringify(key)}:${value}`;
    }
    return `${text}}`;
  };
  return {
    chunk: (chunk) => {
      const sent = withoutWebSearches(chunk);
      return sent ? `data: ${json(sent)}\n\n` : '';
    },
    end: () => 'data: [DONE]\n\n',
    keepAlive: processingKeepAlive,
  };
}

export function rawSseOutput(reply: FastifyReply, settings: StreamSettings, keepAlive: () => string): RawStreamOutput {
  const writer = sseWriter(reply, settings);
  return {
    get opened() {
      return writer.opened;
    },
    open() {
      reply.hijack();
      writer.open();
      writer.keepAlive(settings.keepAliveMs, keepAlive);
    },
    write: (text) => writer.raw(text),
    end: (last) => writer.end(last),
    abandon() {
      writer.dispose();
      reply.raw.destroy();
    },
  };
}

export function sseOutput(reply: FastifyReply, settings: StreamSettings, encoder: StreamEncoder): StreamOutput {
  const raw = rawSseOutput(reply, settings, () => encoder.keepAlive());
  return {
    get opened() {
      return raw.opened;
    },
    open: () => raw.open(),
    data: (chunk) => raw.write(encoder.chunk(chunk)),
    comment: () => raw.write(encoder.keepAlive()),
    end: () => raw.end(encoder.end()),
    abandon: () => raw.abandon(),
  };
}
