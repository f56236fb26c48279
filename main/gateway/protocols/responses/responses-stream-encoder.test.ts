import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from '../../../../shared/api/index.js';
import { ResponseIds } from './response-object.js';
import { translateResponsesRequest } from './responses-request.js';
import { ResponsesStreamEncoder } from './responses-stream-encoder.js';
import { chatChunk } from '../test-support.js';

const chunk = chatChunk;

/** The events an encoder wrote for `chunks`, parsed, after checking each `event:` line names its data's type. */
function encode(chunks: ChatCompletionChunk[], request: Record<string, unknown> = {}) {
  const encoder = new ResponsesStreamEncoder(
    translateResponsesRequest({ model: 'p/m', input: 'x', ...request }),
    new ResponseIds('gen-1'),
    1,
  );
  const text = chunks.map((part) => encoder.chunk(part)).join('') + encoder.end();
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      const data = JSON.parse(dataLine!.slice('data: '.length)) as { type: string; sequence_number: number } & Record<
        string,
        unknown
      >;
      expect(eventLine).toBe(`event: ${data.type}`);
      return data;
    });
}

describe('the Responses event stream', () => {
  it('numbers the events and streams reasoning summary, then text, then completes with usage', () => {
    const last = chunk({}, 'stop');
    last.usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, cost: 0.5 };
    const events = encode(
      [
        chunk({
          role: 'assistant',
          reasoning: 'Let me ',
          reasoning_details: [{ type: 'reasoning.text', text: 'Let me ' }],
        }),
        chunk({ reasoning: 'think.' }),
        chunk({ content: 'Hi' }),
        chunk({ content: '!' }),
        last,
      ],
      { reasoning: { summary: 'auto' } },
    );
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[6]).toMatchObject({ text: 'Let me think.', output_index: 0, summary_index: 0 });
    expect(events[13]).toMatchObject({ text: 'Hi!', output_index: 1, content_index: 0 });
    expect(events.at(-1)).toMatchObject({
      response: { status: 'completed', usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5, cost: 0.5 } },
    });
    const output = (events.at(-1)!.response as { output: { type: string }[] }).output;
    expect(output.map((item) => item.type)).toEqual(['reasoning', 'message']);
  });

  it('streams function arguments and sends a freeform input whole once its call is complete', () => {
    const events = encode(
      [
        chunk({
          tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"ci' } }],
        }),
        chunk({
          tool_calls: [
            { index: 1, id: 'c2', type: 'function', function: { name: 'apply_patch', arguments: '{"input":' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"P"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: '"*** Begin"}' } }] }),
        chunk({}, 'tool_calls'),
      ],
      {
        tools: [
          { type: 'function', name: 'get_weather' },
          { type: 'custom', name: 'apply_patch' },
        ],
      },
    );
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'response.function_call_arguments.delta')).toHaveLength(2);
    expect(events.find((event) => event.type === 'response.function_call_arguments.done')).toMatchObject({
      arguments: '{"city":"P"}',
    });
    expect(events.find((event) => event.type === 'response.custom_tool_call_input.delta')).toMatchObject({
      delta: '*** Begin',
    });
    const done = events.filter((event) => event.type === 'response.output_item.done').map((event) => event.item);
    expect(done).toEqual([
      expect.objectContaining({ type: 'function_call', call_id: 'c1', arguments: '{"city":"P"}', status: 'completed' }),
      expect.objectContaining({ type: 'custom_tool_call', call_id: 'c2', input: '*** Begin', status: 'completed' }),
    ]);
  });

  it('ends a failure with response.failed and leaves a half-written call open', () => {
    const failure = chunk({ content: '' }, 'error');
    failure.error = { code: 502, message: 'upstream went away', metadata: {} };
    const events = encode(
      [chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: '{"a' } }] }), failure],
      {
        tools: [{ type: 'function', name: 'f' }],
      },
    );
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.failed',
    ]);
    expect(events.at(-1)).toMatchObject({
      response: { status: 'failed', error: { code: 'server_error', message: 'upstream went away' } },
    });
  });

  it('says response.incomplete when the token limit cut the answer, or the content filter stopped it', () => {
    expect(encode([chunk({ content: 'cu' }, 'length')]).at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
    expect(encode([chunk({ content: '' }, 'content_filter')]).at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { incomplete_details: { reason: 'content_filter' } },
    });
  });
});
