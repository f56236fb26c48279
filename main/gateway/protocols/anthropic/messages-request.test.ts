// Anthropic requests → the chat request, without a server: every block, tool and parameter, what only Anthropic
// can take, and validation errors that name Anthropic's fields.

import { describe, expect, it } from 'vitest';
import { encodeReasoningDetails } from '../responses/reasoning-carrier.js';
import { parseCountTokensRequest, parseMessagesRequest, translateMessagesRequest } from './messages-request.js';
import { anthropicThinkingDetails } from '../test-support.js';

const translate = (body: Record<string, unknown>) =>
  translateMessagesRequest(parseMessagesRequest({ model: 'p/m', max_tokens: 100, ...body }));

describe('translateMessagesRequest', () => {
  it('turns system (string or blocks, cache_control dropped) and mid-conversation system messages into system messages', () => {
    const { chatRequest } = translate({
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'system', content: [{ type: 'text', text: 'Tools changed.' }] },
      ],
    });
    expect(chatRequest.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'user', content: 'hi' },
      { role: 'system', content: 'Tools changed.' },
    ]);
    expect(translate({ system: 'S', messages: [{ role: 'user', content: 'x' }] }).chatRequest.messages[0]).toEqual({
      role: 'system',
      content: 'S',
    });
  });

  it('turns images, PDF and text documents into content parts', () => {
    const { chatRequest, untranslatable } = translate({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' },
              title: 'd.pdf',
            },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' }, title: 'n' },
            { type: 'text', text: 'look', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
    });
    expect(untranslatable).toBeNull();
    expect(chatRequest.messages[0]!.content).toEqual([
      { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'd.pdf' } },
      { type: 'text', text: 'n\n\nnotes' },
      { type: 'text', text: 'look' },
    ]);
  });

  it('turns tool_use into tool calls and tool_result into tool messages, errors marked and images after them', () => {
    const { chatRequest } = translate({
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'snap', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'no such city', is_error: true },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_2',
              content: [
                { type: 'text', text: 'a photo' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
              ],
            },
            { type: 'text', text: 'thanks' },
          ],
        },
      ],
    });
    expect(chatRequest.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'toolu_2', type: 'function', function: { name: 'snap', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'Error: no such city' },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'a photo' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO' } },
          { type: 'text', text: 'thanks' },
        ],
      },
    ]);
  });

  it('turns thinking and redacted thinking into reasoning details, and a carrier signature back into what it carried', () => {
    const carried = [{ type: 'reasoning.encrypted', data: 'sig-g', format: 'google-gemini-v1', id: 'call_1' }];
    const { chatRequest } = translate({
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Hmm.', signature: 'EqQB' },
            { type: 'redacted_thinking', data: 'EmwK' },
            { type: 'thinking', thinking: 'From Gemini.', signature: encodeReasoningDetails(carried) },
            { type: 'text', text: 'A.' },
          ],
        },
      ],
    });
    expect(chatRequest.messages[1]).toEqual({
      role: 'assistant',
      content: 'A.',
      reasoning: 'Hmm.From Gemini.',
      reasoning_details: [...anthropicThinkingDetails, ...carried],
    });
  });

  it('maps tools, tool_choice, sampling, stop sequences, thinking and metadata', () => {
    const tool = { name: 'f', description: 'd', input_schema: { type: 'object', properties: {} } };
    const { chatRequest } = translate({
      messages: [{ role: 'user', content: 'x' }],
      tools: [tool],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      stop_sequences: ['END'],
      temperature: 0.5,
      top_p: 0.9,
      top_k: 40,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      metadata: { user_id: 'u-1' },
      stream: true,
    });
    expect(chatRequest).toMatchObject({
      model: 'p/m',
      stream: true,
      max_tokens: 100,
      tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: tool.input_schema } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
      stop: ['END'],
      temperature: 0.5,
      top_p: 0.9,
      top_k: 40,
      reasoning: { max_tokens: 2048 },
      user: 'u-1',
    });
    const named = translate({
      messages: [{ role: 'user', content: 'x' }],
      tools: [tool],
      tool_choice: { type: 'tool', name: 'f' },
    });
    expect(named.chatRequest.tool_choice).toEqual({ type: 'function', function: { name: 'f' } });
    const adaptive = translate({
      messages: [{ role: 'user', content: 'x' }],
      thinking: { type: 'adaptive' },
      output_config: { effort: 'max' },
    });
    expect(adaptive.chatRequest.reasoning).toEqual({ effort: 'xhigh' });
    expect(
      translate({ messages: [{ role: 'user', content: 'x' }], thinking: { type: 'adaptive' } }).chatRequest.reasoning,
    ).toEqual({
      enabled: true,
    });
  });

  it('names what only Anthropic runs (server tools, their blocks) without refusing it', () => {
    const { untranslatable, chatRequest } = translate({
      messages: [
        { role: 'user', content: 'search' },
        { role: 'assistant', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }] },
      ],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
    });
    expect(untranslatable).toMatch(/messages\[1\]\.content\[0\]\.type is a "server_tool_use" block/);
    expect(chatRequest.tools).toBeUndefined();
    const tools = translate({
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
    });
    expect(tools.untranslatable).toMatch(/tools\[0\] is Anthropic's server tool "web_search_20250305"/);
  });
});

describe('validation', () => {
  it('names Anthropic’s fields', () => {
    expect(() => parseMessagesRequest({ model: 'p/m', messages: [{ role: 'user', content: 'x' }] })).toThrow(
      /max_tokens is required/,
    );
    expect(() =>
      parseMessagesRequest({
        model: 'p/m',
        max_tokens: 1,
        messages: [
          {
            role: 'user',
            content: [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'AA' } }],
          },
        ],
      }),
    ).toThrow(/messages\[0\]\.content\[0\]\.source\.media_type/);
    expect(() =>
      parseMessagesRequest({ model: 'p/m', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'text' }] }] }),
    ).toThrow(/messages\[0\]\.content\[0\]\.text is required/);
    expect(() =>
      parseMessagesRequest({
        model: 'p/m',
        max_tokens: 1,
        messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f' }] }],
      }),
    ).toThrow(/messages\[0\]\.content\[0\]\.input is required/);
    expect(() => parseMessagesRequest({ model: 'p/m', max_tokens: 1, messages: [], temperature: 1.5 })).toThrow(
      /messages must not be empty.*temperature must be <= 1/,
    );
  });

  it('takes count_tokens bodies without max_tokens', () => {
    const request = parseCountTokensRequest({ model: 'p/m', messages: [{ role: 'user', content: 'x' }] });
    expect(translateMessagesRequest(request).chatRequest.messages).toEqual([{ role: 'user', content: 'x' }]);
  });
});
