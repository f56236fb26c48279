// Anthropic Messages as the native relay reads it along (native-relay.ts): usage from message_start and the
// cumulative counts of message_delta, the stop_reason, and the generated text, thinking and tool input; the model
// relabelled in message_start (streamed) or the message (whole); events written as Anthropic names them. An upstream's
// own `error` event never reaches here: the adapter turns it into an error (redacted), which the relay ends the
// stream with as Anthropic's error event.

import type { ApiError } from '../../../../shared/api/index.js';
import { anthropicUsageSchema, type AnthropicUsage, convertAnthropicUsage } from '../../../providers/index.js';
import type { NativeProtocol, NativeReading } from '../../pipeline/native-relay.js';
import { anthropicErrorEvent, anthropicPing } from './messages-stream-encoder.js';

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The texts a content block (or a delta of one) generated. */
function generatedOf(block: Record<string, unknown> | null): string[] {
  if (!block) return [];
  const texts = [block.text, block.thinking, block.partial_json, block.name].map(text);
  if (block.type === 'tool_use' && record(block.input) && Object.keys(block.input as object).length > 0) {
    texts.push(JSON.stringify(block.input));
  }
  return texts.filter((piece): piece is string => piece !== null);
}

/** A fresh reader for one request: Anthropic reports usage in pieces that add up over the stream. */
export function anthropicNativeProtocol(): NativeProtocol & { keepAlive(): string } {
  let usage: AnthropicUsage = {};
  const addUsage = (raw: unknown, reading: NativeReading) => {
    const parsed = anthropicUsageSchema.safeParse(raw);
    if (!parsed.success) return;
    // message_delta's counts are cumulative; a field it leaves out (or sends as null) keeps its earlier value.
    const defined = Object.entries(parsed.data).filter(([, value]) => value !== null && value !== undefined);
    usage = { ...usage, ...Object.fromEntries(defined) };
    reading.usage = convertAnthropicUsage(usage);
  };
  return {
    kind: 'anthropic',
    read(payload, reading) {
      // A whole message says `type: 'message'` (recordings of some clients leave the type out); events name theirs.
      switch (payload.type ?? (Array.isArray(payload.content) ? 'message' : undefined)) {
        case 'message': {
          addUsage(payload.usage, reading);
          if (typeof payload.stop_reason === 'string') reading.finishReason = payload.stop_reason;
          const blocks = Array.isArray(payload.content) ? payload.content : [];
          for (const block of blocks) reading.generated.push(...generatedOf(record(block)));
          break;
        }
        case 'message_start':
          addUsage(record(payload.message)?.usage, reading);
          break;
        case 'content_block_start':
          reading.generated.push(...generatedOf(record(payload.content_block)));
          break;
        case 'content_block_delta':
          reading.generated.push(...generatedOf(record(payload.delta)));
          break;
        case 'message_delta': {
          addUsage(payload.usage, reading);
          const stop = record(payload.delta)?.stop_reason;
          if (typeof stop === 'string') reading.finishReason = stop;
          break;
        }
      }
    },
    relabel(payload, model) {
      if (payload.type === 'message' || (payload.type === undefined && 'model' in payload))
        return { ...payload, model };
      const message = record(payload.message);
      if (payload.type === 'message_start' && message) return { ...payload, message: { ...message, model } };
      return payload;
    },
    encode(payload, event, data) {
      return `event: ${event ?? String(payload.type)}\ndata: ${data ?? JSON.stringify(payload)}\n\n`;
    },
    errorEvent: (error: ApiError) => anthropicErrorEvent(error),
    end: () => '',
    keepAlive: () => anthropicPing,
  };
}
