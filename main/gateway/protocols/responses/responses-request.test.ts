import { describe, expect, it } from 'vitest';
import { chatRequestSchema } from '../../../../shared/api/index.js';
import { encodeReasoningDetails } from './reasoning-carrier.js';
import { translateResponsesRequest } from './responses-request.js';

function translated(body: Record<string, unknown>) {
  return translateResponsesRequest({ model: 'p/m', ...body });
}

function refusal(body: Record<string, unknown>): string {
  try {
    translated(body);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('input items → messages', () => {
  it('takes a string as one user message, instructions as the system message, no stream unless asked', () => {
    const { chatRequest } = translated({ input: 'hi', instructions: 'Be brief.' });
    expect(chatRequest).toEqual({
      model: 'p/m',
      stream: false,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
    });
  });

  it('folds a turn’s reasoning, text and calls into one assistant message and gives back the reasoning details', () => {
    const details = [{ type: 'reasoning.text', text: 'hmm', signature: 'sig', format: 'anthropic-claude-v1' }];
    const { chatRequest } = translated({
      stream: true,
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You code.' }] },
        { role: 'user', content: 'Weather?' },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: encodeReasoningDetails(details) },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
        { type: 'function_call', call_id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'c2', name: 'spawn_agent', namespace: 'agents', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'Sunny' },
        {
          type: 'function_call_output',
          call_id: 'c2',
          output: [
            { type: 'input_text', text: 'Here:' },
            { type: 'input_image', image_url: 'https://example.com/a.png' },
          ],
        },
        { type: 'custom_tool_call', call_id: 'c3', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'c3', output: 'Done' },
      ],
    });
    expect(chatRequest.stream).toBe(true);
    expect(chatRequest.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'You code.' }] },
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Checking.' }],
        reasoning_details: details,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'c2', type: 'function', function: { name: 'agents__spawn_agent', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'Sunny' },
      { role: 'tool', tool_call_id: 'c2', content: 'Here:' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c3', type: 'function', function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c3', content: 'Done' },
    ]);
    expect(() => chatRequestSchema.parse(chatRequest)).not.toThrow();
  });
});

describe('tools and options', () => {
  it('offers function, custom and namespaced tools as functions and remembers how they were declared', () => {
    const { chatRequest, naming } = translated({
      input: 'x',
      tools: [
        { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} }, strict: true },
        {
          type: 'custom',
          name: 'apply_patch',
          description: 'Patch.',
          format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' },
        },
        {
          type: 'namespace',
          name: 'agents',
          description: 'Agents.',
          tools: [{ type: 'function', name: 'spawn', parameters: null }],
        },
        { type: 'web_search', external_web_access: false },
      ],
      tool_choice: { type: 'custom', name: 'apply_patch' },
      parallel_tool_calls: false,
    });
    expect(chatRequest.tools!.map((tool) => tool.function.name)).toEqual([
      'get_weather',
      'apply_patch',
      'agents__spawn',
    ]);
    expect(chatRequest.tools![1]!.function.description).toContain('lark grammar:\nstart: "x"');
    expect(chatRequest.tools![1]!.function.parameters).toMatchObject({ required: ['input'] });
    expect(chatRequest.tool_choice).toEqual({ type: 'function', function: { name: 'apply_patch' } });
    expect(chatRequest.parallel_tool_calls).toBe(false);
    expect([...naming.custom]).toEqual(['apply_patch']);
    expect(naming.namespaced.get('agents__spawn')).toEqual({ namespace: 'agents', name: 'spawn' });
  });

  it('maps reasoning, text format, token limit and the fields chat completions share; keeps store and metadata', () => {
    const translation = translated({
      input: 'x',
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      text: {
        format: { type: 'json_schema', name: 'place', schema: { type: 'object' }, strict: true },
        verbosity: 'low',
      },
      max_output_tokens: 100,
      temperature: 0.5,
      top_p: 0.9,
      user: 'u',
      safety_identifier: 's',
      prompt_cache_key: 'k',
      store: false,
      metadata: { a: 'b' },
      client_metadata: { from: 'codex' },
    });
    expect(translation.chatRequest).toMatchObject({
      reasoning: { effort: 'high' },
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'place', schema: { type: 'object' }, strict: true },
      },
      verbosity: 'low',
      max_completion_tokens: 100,
      temperature: 0.5,
      top_p: 0.9,
      user: 'u',
      safety_identifier: 's',
      prompt_cache_key: 'k',
    });
    for (const field of ['store', 'metadata', 'client_metadata', 'include']) {
      expect(translation.chatRequest).not.toHaveProperty(field);
    }
    expect(translation.includeEncryptedReasoning).toBe(true);
    expect(translation.summarizeReasoning).toBe(true);
  });
});

describe('a request whose only tool was left out', () => {
  it('asks for no tool_choice and no parallel calls, which upstreams refuse without tools', () => {
    const { chatRequest } = translated({
      input: 'x',
      tools: [{ type: 'web_search', external_web_access: false }],
      tool_choice: 'auto',
      parallel_tool_calls: true,
    });
    expect(chatRequest).not.toHaveProperty('tools');
    expect(chatRequest).not.toHaveProperty('tool_choice');
    expect(chatRequest).not.toHaveProperty('parallel_tool_calls');
  });
});

describe('refusals name the Responses field', () => {
  it.each([
    [
      { input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'nope' }] }] },
      'input[0].content[0].image_url must be a data URL',
    ],
    [
      { input: [{ role: 'assistant', content: [{ type: 'input_image', image_url: 'https://x/a.png' }] }] },
      'input[0].content[0].type "input_image" is only allowed for "user"',
    ],
    [
      { input: [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://x/a.pdf' }] }] },
      'input[0].content[0].file_url is not supported',
    ],
    [{ input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0].type "item_reference" is not supported'],
    [{ input: [{ type: 'function_call', call_id: 'c', name: 'f' }] }, 'input[0].arguments is required'],
    [{ input: 'x', tools: [{ type: 'function', name: 'bad name' }] }, 'tools[0].name must be 1 to 64 letters'],
    [
      { input: 'x', tool_choice: { type: 'function', name: 'missing' } },
      'tool_choice.name "missing" is not one of the declared tools',
    ],
    [{ input: 'x', previous_response_id: 'resp_1' }, 'previous_response_id is not supported'],
    [{ input: 'x', background: true }, 'background is not supported'],
    [{ input: [] }, 'input must not be empty'],
  ])('%j', (body, message) => {
    expect(refusal(body)).toContain(message);
  });
});
