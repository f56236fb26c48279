// Chat completions → Anthropic Messages, without a server: blocks in order, stop reasons, usage split.

import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../../../shared/api/index.js';
import { decodeReasoningDetails } from '../responses/reasoning-carrier.js';
import { anthropicThinkingDetails, chatCompletion, tokenUsage } from '../test-support.js';
import { anthropicStopReason, anthropicUsageOf, messageIdOf, messageOf, toolInputOf } from './message-object.js';

function completion(
  message: ChatCompletion['choices'][0]['message'],
  finish: ChatCompletion['choices'][0]['finish_reason'],
) {
  const usage = tokenUsage(100, 20, { prompt_tokens_details: { cached_tokens: 60, cache_write_tokens: 10 } });
  return chatCompletion(message, finish, { usage });
}

describe('messageOf', () => {
  it('puts Anthropic thinking first, then text, then tool_use, with usage as Anthropic counts it', () => {
    const message = messageOf(
      completion(
        {
          role: 'assistant',
          content: 'Checking.',
          reasoning: 'Hmm.',
          reasoning_details: anthropicThinkingDetails,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
        'tool_calls',
      ),
      'msg_1',
    );
    expect(message).toEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'p/m',
      content: [
        { type: 'thinking', thinking: 'Hmm.', signature: 'EqQB' },
        { type: 'redacted_thinking', data: 'EmwK' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 30, output_tokens: 20, cache_read_input_tokens: 60, cache_creation_input_tokens: 10 },
    });
  });

  it('carries another provider’s signatures in one thinking block with its reasoning text', () => {
    const gemini = { type: 'reasoning.encrypted', data: 'sig', format: 'google-gemini-v1', id: 'call_1', index: 1 };
    const message = messageOf(
      completion(
        {
          role: 'assistant',
          content: null,
          reasoning: 'Thought.',
          reasoning_details: [
            { type: 'reasoning.text', text: 'Thought.', format: 'google-gemini-v1', index: 0 },
            gemini,
          ],
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        'tool_calls',
      ),
      'msg_1',
    );
    const thinking = message.content[0] as { type: string; thinking: string; signature: string };
    expect(thinking).toMatchObject({ type: 'thinking', thinking: 'Thought.' });
    expect(decodeReasoningDetails(thinking.signature)).toEqual([gemini]);
    expect(message.content[1]).toEqual({ type: 'tool_use', id: 'call_1', name: 'f', input: {} });
  });
});

describe('the pieces', () => {
  it('maps finish reasons to stop reasons, an upstream’s own Anthropic value first', () => {
    expect(anthropicStopReason('stop')).toBe('end_turn');
    expect(anthropicStopReason('length')).toBe('max_tokens');
    expect(anthropicStopReason('tool_calls')).toBe('tool_use');
    expect(anthropicStopReason('content_filter')).toBe('refusal');
    expect(anthropicStopReason('stop', 'stop_sequence')).toBe('stop_sequence');
    expect(anthropicStopReason(null)).toBeNull();
  });

  it('reads tool arguments as an object, keeping what is not one', () => {
    expect(toolInputOf('')).toEqual({});
    expect(toolInputOf('{"x":[1]}')).toEqual({ x: [1] });
    expect(toolInputOf('not json')).toEqual({ input: 'not json' });
  });

  it('splits the prompt into uncached input and cache reads and writes; ids are msg_ ids', () => {
    expect(anthropicUsageOf({ prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 })).toEqual({
      input_tokens: 5,
      output_tokens: 1,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
    expect(messageIdOf('gen-1700000000-abc_D-e')).toBe('msg_1700000000abcDe');
  });
});
