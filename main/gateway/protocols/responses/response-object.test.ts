import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../../../shared/api/index.js';
import { chatCompletion, tokenUsage } from '../test-support.js';
import { decodeReasoningDetails } from './reasoning-carrier.js';
import { ResponseIds, responseOf } from './response-object.js';
import { translateResponsesRequest } from './responses-request.js';

const translation = translateResponsesRequest({
  model: 'p/m',
  input: 'x',
  include: ['reasoning.encrypted_content'],
  reasoning: { summary: 'auto' },
  tools: [
    { type: 'custom', name: 'apply_patch' },
    { type: 'namespace', name: 'agents', description: '', tools: [{ type: 'function', name: 'spawn' }] },
  ],
});

function completion(message: ChatCompletion['choices'][number]['message'], finish: 'stop' | 'length' | 'tool_calls') {
  const usage = tokenUsage(10, 5, {
    prompt_tokens_details: { cached_tokens: 4 },
    completion_tokens_details: { reasoning_tokens: 2 },
    cost: 0.01,
  });
  return chatCompletion(message, finish, { usage });
}

describe('a chat completion as a Response', () => {
  it('has reasoning, the message, and each call as its tool was declared', () => {
    const details = [{ type: 'reasoning.text', text: 'hmm', signature: 'sig' }];
    const response = responseOf(
      completion(
        {
          role: 'assistant',
          content: 'Patching.',
          reasoning: 'hmm',
          reasoning_details: details,
          annotations: [
            { type: 'url_citation', url_citation: { url: 'https://a', title: 'A', start_index: 0, end_index: 3 } },
          ],
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' } },
            { id: 'c2', type: 'function', function: { name: 'agents__spawn', arguments: '{}' } },
          ],
        },
        'tool_calls',
      ),
      translation,
      { ids: new ResponseIds('gen-17-abc_D'), createdAt: 17 },
    );
    expect(response).toMatchObject({
      id: 'resp_17abcD',
      object: 'response',
      created_at: 17,
      status: 'completed',
      model: 'p/m',
    });
    const [reasoning, message, custom, namespaced] = response.output;
    expect(reasoning).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'hmm' }] });
    expect(decodeReasoningDetails((reasoning as { encrypted_content: string }).encrypted_content)).toEqual(details);
    expect(message).toMatchObject({
      type: 'message',
      status: 'completed',
      content: [
        {
          type: 'output_text',
          text: 'Patching.',
          annotations: [{ type: 'url_citation', url: 'https://a', title: 'A', start_index: 0, end_index: 3 }],
        },
      ],
    });
    expect(custom).toMatchObject({
      type: 'custom_tool_call',
      call_id: 'c1',
      name: 'apply_patch',
      input: '*** Begin Patch',
    });
    expect(namespaced).toMatchObject({
      type: 'function_call',
      call_id: 'c2',
      name: 'spawn',
      namespace: 'agents',
      arguments: '{}',
    });
    expect(new Set(response.output.map((item) => item.id)).size).toBe(4);
    expect(response.usage).toEqual({
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 4 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 2 },
      total_tokens: 15,
      cost: 0.01,
    });
  });

  it('is incomplete when the token limit cut it', () => {
    const response = responseOf(completion({ role: 'assistant', content: 'cut' }, 'length'), translation, {
      ids: new ResponseIds('gen-1'),
      createdAt: 1,
    });
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(response.output[0]).toMatchObject({ status: 'incomplete' });
  });
});
