// Chat chunks → Anthropic's event stream, without a server: the event order the Messages API uses, thinking with
// its signature, tool input as JSON deltas, usage at the end, the error event.

import { describe, expect, it } from 'vitest';
import { anthropicReasoningFormat } from '../../../providers/index.js';
import { decodeReasoningDetails } from '../responses/reasoning-carrier.js';
import { AnthropicStreamEncoder } from './messages-stream-encoder.js';
import { chatChunk } from '../test-support.js';

const chunk = chatChunk;

/** The events of an SSE text as [event name, payload]. */
function events(text: string): [string, Record<string, unknown>][] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      const payload = JSON.parse(dataLine!.slice('data: '.length)) as Record<string, unknown>;
      expect(payload.type).toBe(eventLine!.slice('event: '.length));
      return [payload.type as string, payload];
    });
}

describe('AnthropicStreamEncoder', () => {
  it('streams reasoning, text and a tool call as Anthropic’s blocks, then the stop reason and usage', () => {
    const encoder = new AnthropicStreamEncoder('msg_1', 'p/m');
    let text = '';
    text += encoder.chunk(chunk({ role: 'assistant', reasoning: 'Hmm' }));
    text += encoder.chunk(chunk({ content: 'Hi' }));
    text += encoder.chunk(
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] }),
    );
    text += encoder.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] }));
    text += encoder.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }, 'tool_calls'));
    text += encoder.chunk({
      ...chunk({}),
      choices: [],
      usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
    });
    text += encoder.end();
    expect(events(text)).toEqual([
      [
        'message_start',
        expect.objectContaining({ message: expect.objectContaining({ id: 'msg_1', model: 'p/m', content: [] }) }),
      ],
      [
        'content_block_start',
        { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      ],
      [
        'content_block_delta',
        { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm' } },
      ],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 1 }],
      [
        'content_block_start',
        {
          type: 'content_block_start',
          index: 2,
          content_block: { type: 'tool_use', id: 'call_1', name: 'f', input: {} },
        },
      ],
      [
        'content_block_delta',
        { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"a":' } },
      ],
      [
        'content_block_delta',
        { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '1}' } },
      ],
      ['content_block_stop', { type: 'content_block_stop', index: 2 }],
      [
        'message_delta',
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { input_tokens: 9, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      ],
      ['message_stop', { type: 'message_stop' }],
    ]);
  });

  it('streams Anthropic’s thinking with its signature and redacted thinking as its own block', () => {
    const encoder = new AnthropicStreamEncoder('msg_1', 'p/m');
    const format = anthropicReasoningFormat;
    let text = encoder.chunk(
      chunk({ reasoning: 'A', reasoning_details: [{ type: 'reasoning.text', text: 'A', format, index: 0 }] }),
    );
    text += encoder.chunk(
      chunk({ reasoning_details: [{ type: 'reasoning.text', text: '', signature: 'EqQB', format, index: 0 }] }),
    );
    text += encoder.chunk(
      chunk({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'EmwK', format, index: 1 }] }),
    );
    text += encoder.chunk(chunk({ content: 'B' }, 'stop'));
    text += encoder.end();
    const deltas = events(text).filter(([name]) => name !== 'message_start' && name !== 'message_delta');
    expect(deltas.map(([, payload]) => payload.delta ?? payload.content_block ?? payload.type)).toEqual([
      { type: 'thinking', thinking: '', signature: '' },
      { type: 'thinking_delta', thinking: 'A' },
      { type: 'signature_delta', signature: 'EqQB' },
      'content_block_stop',
      { type: 'redacted_thinking', data: 'EmwK' },
      'content_block_stop',
      { type: 'text', text: '' },
      { type: 'text_delta', text: 'B' },
      'content_block_stop',
      'message_stop',
    ]);
  });

  it('ends another provider’s thinking with a signature that carries its details back', () => {
    const encoder = new AnthropicStreamEncoder('msg_1', 'p/m');
    const signature = { type: 'reasoning.encrypted', data: 'sig', format: 'google-gemini-v1', id: 'call_1', index: 1 };
    let text = encoder.chunk(
      chunk({
        reasoning: 'T',
        reasoning_details: [{ type: 'reasoning.text', text: 'T', format: 'google-gemini-v1', index: 0 }],
      }),
    );
    text += encoder.chunk(
      chunk({
        reasoning_details: [signature],
        tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      }),
    );
    const carried = events(text).find(
      ([, payload]) => (payload.delta as { type?: string })?.type === 'signature_delta',
    )!;
    expect(decodeReasoningDetails((carried[1].delta as { signature: string }).signature)).toEqual([signature]);
  });

  it('ends a failed stream with the error event and nothing after it; pings keep it alive', () => {
    const encoder = new AnthropicStreamEncoder('msg_1', 'p/m');
    let text = encoder.chunk(chunk({ content: 'par' }));
    text += encoder.chunk({ ...chunk({}, 'error'), error: { code: 529, message: 'Overloaded', metadata: {} } });
    text += encoder.end();
    expect(events(text).slice(-2)).toEqual([
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
    ]);
    expect(encoder.keepAlive()).toBe('event: ping\ndata: {"type":"ping"}\n\n');
  });
});
