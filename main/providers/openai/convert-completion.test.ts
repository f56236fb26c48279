import { describe, expect, it } from 'vitest';
import { usageOf } from '../test-support.js';
import { completionToStreamParts, convertOpenAICompletion } from './convert-completion.js';
import { upstreamCompletionSchema } from './upstream-schemas.js';

const recorded = {
  id: 'chatcmpl-BfXs2',
  object: 'chat.completion',
  created: 1730000600,
  model: 'gpt-4o-2024-08-06',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"tz":"Europe/Paris"}' } },
        ],
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: {
    prompt_tokens: 88,
    completion_tokens: 46,
    total_tokens: 134,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
  },
  service_tier: 'default',
  system_fingerprint: 'fp_a7d06e42a7',
};

describe('convertOpenAICompletion', () => {
  it('converts tool calls, finish reason and usage, and keeps the fields it does not translate', () => {
    const completion = convertOpenAICompletion(upstreamCompletionSchema.parse(recorded));
    expect(completion).toEqual({
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            annotations: [],
            tool_calls: recorded.choices[0]!.message.tool_calls,
          },
          finish_reason: 'tool_calls',
          native_finish_reason: 'tool_calls',
          logprobs: null,
        },
      ],
      usage: usageOf(88, 46, { cached: 0, reasoning: 0 }),
      system_fingerprint: 'fp_a7d06e42a7',
    });
  });

  it('reads reasoning_content, and zero usage when a server sends none', () => {
    const completion = convertOpenAICompletion(
      upstreamCompletionSchema.parse({
        choices: [
          { message: { role: 'assistant', content: '4', reasoning_content: 'Two and two.' }, finish_reason: 'stop' },
        ],
      }),
    );
    expect(completion.choices[0]!.message).toEqual({
      role: 'assistant',
      content: '4',
      refusal: null,
      reasoning: 'Two and two.',
    });
    expect(completion.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
  });

  it('reads a message whose content is an array of thinking and text parts (Mistral)', () => {
    const completion = convertOpenAICompletion(
      upstreamCompletionSchema.parse({
        choices: [
          {
            message: {
              role: 'assistant',
              content: [
                { type: 'thinking', thinking: [{ type: 'text', text: 'Basic arithmetic.' }] },
                { type: 'text', text: '2 + 2 = 4' },
              ],
            },
            finish_reason: 'stop',
          },
        ],
      }),
    );
    expect(completion.choices[0]!.message).toEqual({
      role: 'assistant',
      content: '2 + 2 = 4',
      refusal: null,
      reasoning: 'Basic arithmetic.',
    });
  });

  it('keeps a refusal as the refusal, with no content, and the log probabilities the upstream sent', () => {
    const logprobs = { content: [{ token: 'I', logprob: -0.1, bytes: [73], top_logprobs: [] }], refusal: null };
    const completion = convertOpenAICompletion(
      upstreamCompletionSchema.parse({
        choices: [
          {
            message: { role: 'assistant', content: null, refusal: 'I can’t help with that.', audio: null },
            finish_reason: 'stop',
            logprobs,
          },
        ],
      }),
    );
    expect(completion.choices[0]).toMatchObject({
      message: { role: 'assistant', content: null, refusal: 'I can’t help with that.', audio: null },
      logprobs,
    });
  });

  it('replays a completion as stream parts with indexed tool calls', () => {
    const completion = convertOpenAICompletion(upstreamCompletionSchema.parse(recorded));
    const parts = completionToStreamParts(completion, true);
    expect(parts[0]).toMatchObject({
      type: 'delta',
      finish_reason: 'tool_calls',
      delta: {
        tool_calls: [
          { index: 0, id: 'call_a' },
          { index: 1, id: 'call_b' },
        ],
      },
    });
    expect(parts[1]).toMatchObject({ type: 'usage', usage: { total_tokens: 134 } });
  });
});
