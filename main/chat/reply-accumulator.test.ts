import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from '../../shared/api/index.js';
import { ReplyAccumulator } from './reply-accumulator.js';
import { missingToolResult, toRequestMessages } from './request-messages.js';
import { newChatMessage } from '../../shared/bridge/chat-message.js';
import type { ChatMessage, Conversation } from '../../shared/bridge/types.js';

function chunk(delta: Record<string, unknown>, finish: string | null = null, extra = {}): ChatCompletionChunk {
  return {
    id: 'g',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish as never }],
    ...extra,
  };
}

describe('ReplyAccumulator', () => {
  it('joins text, reasoning, reasoning details and tool-call fragments', () => {
    const reply = new ReplyAccumulator();
    expect(reply.accept(chunk({ role: 'assistant', reasoning: 'Hm', content: '' }))).toEqual({
      text: '',
      reasoning: 'Hm',
    });
    reply.accept(chunk({ reasoning_details: [{ type: 'reasoning.text', index: 0, text: 'a' }] }));
    reply.accept(chunk({ reasoning_details: [{ type: 'reasoning.text', index: 0, text: 'b', signature: 's' }] }));
    reply.accept(chunk({ content: 'Hi' }));
    reply.accept(chunk({ tool_calls: [{ index: 1, id: 'c2', function: { name: 'two', arguments: '{"b"' } }] }));
    reply.accept(chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'one', arguments: '' } }] }));
    reply.accept(chunk({ tool_calls: [{ index: 1, function: { arguments: ':2}' } }] }));
    reply.accept(chunk({}, 'tool_calls'));
    reply.accept({
      ...chunk({}),
      choices: [],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, cost: 0.5 },
    });
    expect(reply.text).toBe('Hi');
    expect(reply.reasoning).toBe('Hm');
    expect(reply.reasoningDetails).toEqual([{ type: 'reasoning.text', index: 0, text: 'ab', signature: 's' }]);
    expect(reply.toolCalls()).toEqual([
      { id: 'c1', type: 'function', function: { name: 'one', arguments: '' } },
      { id: 'c2', type: 'function', function: { name: 'two', arguments: '{"b":2}' } },
    ]);
    expect(reply.usage?.cost).toBe(0.5);
    expect(reply.error).toBeNull();
  });

  it('keeps the message of a mid-stream error chunk, with what to do about it', () => {
    const reply = new ReplyAccumulator();
    reply.accept(chunk({}, 'error', { error: { code: 502, message: 'Upstream went away', metadata: {} } }));
    expect(reply.error).toBe('Upstream went away. Wait a moment and try again (Regenerate), or pick another model.');
  });
});

describe('toRequestMessages', () => {
  const conversation: Conversation = {
    id: 'c',
    title: 't',
    model: 'p/m',
    systemPrompt: 'Be brief.',
    temperature: null,
    createdAt: 0,
    updatedAt: 0,
  };
  const message = (fields: Partial<ChatMessage> & Pick<ChatMessage, 'id' | 'role' | 'status'>): ChatMessage =>
    newChatMessage({ conversationId: 'c', createdAt: 0, ...fields });

  it('puts the system prompt first, leaves out empty replies and answers every tool call exactly once', () => {
    const history = [
      message({ id: '1', role: 'user', status: 'complete', content: 'hi' }),
      message({ id: '2', role: 'assistant', status: 'stopped', content: null }),
      message({
        id: '3',
        role: 'assistant',
        status: 'complete',
        toolCalls: [
          { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' }, mcp: { server: 's', tool: 'f' } },
          { id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } },
        ],
      }),
      message({ id: '4', role: 'tool', status: 'complete', toolCallId: 'a', content: 'A' }),
      message({ id: '5', role: 'tool', status: 'complete', toolCallId: 'zzz', content: 'orphan' }),
    ];
    expect(toRequestMessages(conversation, history)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
          { id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'A' },
      { role: 'tool', tool_call_id: 'b', content: missingToolResult },
    ]);
  });
});
