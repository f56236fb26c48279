// How the native relay reads Anthropic's own answers along, without a server.

import { describe, expect, it } from 'vitest';
import type { NativeReading } from '../../pipeline/native-relay.js';
import { GeneratedText } from '../../pipeline/usage-estimate.js';
import { anthropicNativeProtocol } from './native-messages.js';

const reading = (): NativeReading => ({ usage: null, finishReason: null, generated: new GeneratedText() });

describe('anthropicNativeProtocol', () => {
  it('adds message_delta’s cumulative counts to message_start’s and reads the stop reason and generated text', () => {
    const protocol = anthropicNativeProtocol();
    const read = reading();
    protocol.read(
      {
        type: 'message_start',
        message: { usage: { input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 1 } },
      },
      read,
    );
    protocol.read(
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', name: 'f', input: {} } },
      read,
    );
    protocol.read(
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{}' } },
      read,
    );
    protocol.read(
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 30, input_tokens: null } },
      read,
    );
    expect(read.usage).toMatchObject({
      prompt_tokens: 100,
      completion_tokens: 30,
      prompt_tokens_details: { cached_tokens: 90 },
    });
    expect(read.finishReason).toBe('tool_use');
    expect(read.generated.pieces).toEqual(['f', '{}']);
  });

  it('reads a whole message and relabels its model; only message_start is relabelled in a stream', () => {
    const protocol = anthropicNativeProtocol();
    const read = reading();
    const message = {
      type: 'message',
      model: 'claude-x',
      content: [{ type: 'text', text: 'hi' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 3, output_tokens: 1 },
    };
    protocol.read(message, read);
    expect(read).toMatchObject({
      finishReason: 'end_turn',
      generated: { pieces: ['hi'] },
      usage: { prompt_tokens: 3, completion_tokens: 1 },
    });
    expect(protocol.relabel(message, 'p/claude-x').model).toBe('p/claude-x');
    expect(protocol.relabel({ type: 'message_start', message: { model: 'claude-x' } }, 'p/claude-x')).toEqual({
      type: 'message_start',
      message: { model: 'p/claude-x' },
    });
    const untyped = { model: 'claude-x', content: [{ type: 'text', text: 'yo' }], usage: { input_tokens: 2 } };
    const untypedReading = reading();
    protocol.read(untyped, untypedReading);
    expect(untypedReading.generated.pieces).toEqual(['yo']);
    expect(protocol.relabel(untyped, 'p/claude-x').model).toBe('p/claude-x');
    const ping = { type: 'ping' };
    expect(protocol.relabel(ping, 'p/claude-x')).toBe(ping);
  });

  it('writes events under their own name, with the upstream’s own text when given', () => {
    const protocol = anthropicNativeProtocol();
    expect(protocol.encode({ type: 'ping' }, 'ping', '{"type": "ping"}')).toBe(
      'event: ping\ndata: {"type": "ping"}\n\n',
    );
    expect(protocol.encode({ type: 'message_stop' }, undefined)).toBe(
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
    expect(protocol.end()).toBe('');
  });
});
