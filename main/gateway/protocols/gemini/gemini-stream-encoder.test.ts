import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk, ChunkChoice } from '../../../../shared/api/index.js';
import { decodeThoughtSignature } from './thought-signature.js';
import { geminiStreamEncoder } from './gemini-stream-encoder.js';

function chunk(choices: ChunkChoice[], extra: Partial<ChatCompletionChunk> = {}): ChatCompletionChunk {
  return { id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'oai/gpt-4o', choices, ...extra };
}

function choice(delta: ChunkChoice['delta'], finish: ChunkChoice['finish_reason'] = null): ChunkChoice {
  return { index: 0, delta, finish_reason: finish };
}

/** The payloads of the events `text` holds, checking Google's framing. */
function payloads(text: string): Record<string, unknown>[] {
  if (text === '') return [];
  expect(text.endsWith('\r\n\r\n')).toBe(true);
  return text
    .split('\r\n\r\n')
    .filter(Boolean)
    .map((event) => JSON.parse(event.replace(/^data: /, '')) as Record<string, unknown>);
}

describe('geminiStreamEncoder', () => {
  it('streams thoughts and text as they come, with the finish and usageMetadata at the end, and no [DONE]', () => {
    const encoder = geminiStreamEncoder();
    const events = [
      chunk([choice({ role: 'assistant', reasoning: 'Hmm.' })]),
      chunk([choice({ content: 'Hel' })]),
      chunk([choice({ content: 'lo' })]),
      chunk([choice({}, 'stop')], { usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } }),
    ].flatMap((each) => payloads(encoder.chunk(each)));
    expect(events).toEqual([
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Hmm.', thought: true }] }, index: 0 }],
        modelVersion: 'oai/gpt-4o',
        responseId: 'gen-1',
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }],
        modelVersion: 'oai/gpt-4o',
        responseId: 'gen-1',
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'lo' }] }, index: 0 }],
        modelVersion: 'oai/gpt-4o',
        responseId: 'gen-1',
      },
      {
        candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 },
        modelVersion: 'oai/gpt-4o',
        responseId: 'gen-1',
      },
    ]);
    expect(encoder.end()).toBe('');
  });

  it('sends tool calls whole with the finish, the reasoning details as the signature of the first call', () => {
    const encoder = geminiStreamEncoder();
    const thinking = { type: 'reasoning.text', text: 'Call it.', format: 'anthropic-claude-v1', index: 0 };
    const signed = { type: 'reasoning.text', signature: 'sig-1', format: 'anthropic-claude-v1', index: 0 };
    const text = [
      chunk([choice({ reasoning: 'Call it.', reasoning_details: [thinking] })]),
      chunk([choice({ reasoning_details: [signed] })]),
      chunk([
        choice({
          tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '' } }],
        }),
      ]),
      chunk([choice({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] })]),
      chunk([choice({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] })]),
      chunk([choice({}, 'tool_calls')]),
    ]
      .map((each) => encoder.chunk(each))
      .join('');
    const events = payloads(text) as {
      candidates: { content: { parts: Record<string, unknown>[] }; finishReason?: string }[];
    }[];
    expect(events).toHaveLength(2);
    const last = events[1]!.candidates[0]!;
    expect(last.finishReason).toBe('STOP');
    expect(last.content.parts).toEqual([
      {
        functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: 'toolu_1' },
        thoughtSignature: expect.any(String),
      },
    ]);
    expect(decodeThoughtSignature(last.content.parts[0]!.thoughtSignature as string)).toEqual([thinking, signed]);
  });

  it('puts pending reasoning details on the next text part', () => {
    const encoder = geminiStreamEncoder();
    const detail = { type: 'reasoning.encrypted', data: 'opaque', format: 'openai-responses-v1' };
    expect(encoder.chunk(chunk([choice({ reasoning_details: [detail] })]))).toBe('');
    const [event] = payloads(encoder.chunk(chunk([choice({ content: 'Answer' })]))) as {
      candidates: { content: { parts: { text: string; thoughtSignature?: string }[] } }[];
    }[];
    const part = event!.candidates[0]!.content.parts[0]!;
    expect(part.text).toBe('Answer');
    expect(decodeThoughtSignature(part.thoughtSignature!)).toEqual([detail]);
  });

  it('keeps reasoning that follows text for the function call: later text would be merged away', () => {
    const encoder = geminiStreamEncoder();
    const detail = {
      type: 'reasoning.text',
      text: 'More.',
      signature: 'sig-2',
      format: 'anthropic-claude-v1',
      index: 1,
    };
    encoder.chunk(chunk([choice({ content: 'First. ' })]));
    encoder.chunk(chunk([choice({ reasoning_details: [detail] })]));
    const [text] = payloads(encoder.chunk(chunk([choice({ content: 'Then.' })]))) as {
      candidates: { content: { parts: Record<string, unknown>[] } }[];
    }[];
    expect(text!.candidates[0]!.content.parts).toEqual([{ text: 'Then.' }]);
    const call = { index: 0, id: 'toolu_2', type: 'function' as const, function: { name: 'f', arguments: '{}' } };
    encoder.chunk(chunk([choice({ tool_calls: [call] })]));
    const [last] = payloads(encoder.chunk(chunk([choice({}, 'tool_calls')]))) as {
      candidates: { content: { parts: { thoughtSignature?: string }[] } }[];
    }[];
    expect(decodeThoughtSignature(last!.candidates[0]!.content.parts[0]!.thoughtSignature!)).toEqual([detail]);
  });

  it('maps the finish reasons', () => {
    const encoder = geminiStreamEncoder();
    const [event] = payloads(encoder.chunk(chunk([choice({ content: 'cut' }, 'length')]))) as {
      candidates: { finishReason: string }[];
    }[];
    expect(event!.candidates[0]!.finishReason).toBe('MAX_TOKENS');
  });

  it('ends a failure with Google’s error object', () => {
    const encoder = geminiStreamEncoder();
    const failed = chunk([choice({}, 'error')], {
      error: { code: 503, message: 'Provider "oai" is overloaded', metadata: {} },
    });
    expect(payloads(encoder.chunk(failed))).toEqual([
      { error: { code: 503, message: 'Provider "oai" is overloaded', status: 'UNAVAILABLE' } },
    ]);
  });

  it('keeps the connection alive with SSE comments the SDK skips', () => {
    expect(geminiStreamEncoder().keepAlive()).toMatch(/^: .*\n\n$/);
  });
});
