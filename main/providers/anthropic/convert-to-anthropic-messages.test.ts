import { describe, expect, it } from 'vitest';
import type { ApiError, ChatMessage } from '../../../shared/api/index.js';
import { imageQuestion, png, thrown } from '../test-support.js';
import { convertToAnthropicMessages, thinkingBlocksOf } from './convert-to-anthropic-messages.js';

const options = { acceptsImages: true, modelLabel: 'claude/claude-sonnet-4' };
const signature = 'EqQBCkgIBxABGAIiQL1lq0Yx7q9mO3t0A1wVHzmhGcFAkoSjO4P2Q';

function convertError(messages: ChatMessage[], acceptsImages = true): ApiError {
  return thrown(() => convertToAnthropicMessages(messages, { ...options, acceptsImages }));
}

describe('convertToAnthropicMessages', () => {
  it('moves system and developer messages to top-level text blocks, in order, wherever they are', () => {
    const prompt = convertToAnthropicMessages(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: 'Hi' },
        { role: 'system', content: 'Late rule.' },
      ],
      options,
    );
    expect(prompt.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'Answer in French.' },
      { type: 'text', text: 'Late rule.' },
    ]);
    expect(prompt.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });

  it('leaves out `system` when there is none, and empty texts Anthropic would reject', () => {
    const prompt = convertToAnthropicMessages(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: '' },
            { type: 'text', text: 'Hi' },
          ],
        },
        { role: 'assistant', content: '' },
      ],
      options,
    );
    expect(prompt).toEqual({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
  });

  it('turns base64 data URLs into base64 image blocks and http(s) URLs into url sources', () => {
    const prompt = convertToAnthropicMessages(
      imageQuestion(`data:image/png;base64,${png}`, `data:image/jpg;base64,${png}`, 'https://example.com/cat.webp'),
      options,
    );
    expect(prompt.messages[0]!.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: png } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.webp' } },
    ]);
  });

  it('keeps cache_control that callers put on parts', () => {
    const part = { type: 'text', text: 'Long document', cache_control: { type: 'ephemeral' } } as const;
    const prompt = convertToAnthropicMessages(
      [
        { role: 'system', content: [part] },
        { role: 'user', content: [part] },
      ],
      options,
    );
    expect(prompt.system).toEqual([{ type: 'text', text: 'Long document', cache_control: { type: 'ephemeral' } }]);
    expect(prompt.messages[0]!.content[0]).toEqual({
      type: 'text',
      text: 'Long document',
      cache_control: { type: 'ephemeral' },
    });
  });

  it('answers 400 for an image to a model without vision, and for image types Anthropic does not take', () => {
    const image = (url: string): ChatMessage[] => [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'x' },
          { type: 'image_url', image_url: { url } },
        ],
      },
    ];
    const noVision = convertError(image(`data:image/png;base64,${png}`), false);
    expect(noVision.status).toBe(400);
    expect(noVision.message).toBe(
      'Model "claude/claude-sonnet-4" does not accept images (messages[0].content[1] is an image).',
    );
    const bmp = convertError(image(`data:image/bmp;base64,${png}`));
    expect(bmp.status).toBe(400);
    expect(bmp.message).toContain('messages[0].content[1] is an image of type image/bmp');
  });

  it('turns assistant tool calls into tool_use blocks with parsed input, {} for empty arguments', () => {
    const prompt = convertToAnthropicMessages(
      [
        { role: 'user', content: 'Weather and time?' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'toolu_2', type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        },
      ],
      options,
    );
    expect(prompt.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: {} },
      ],
    });
  });

  it('answers 400 naming the message for tool-call arguments that are not a JSON object', () => {
    const call = (args: string): ChatMessage[] => [
      { role: 'user', content: 'x' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: args } }],
      },
    ];
    const invalid = convertError(call('{"city": Par'));
    expect(invalid.status).toBe(400);
    expect(invalid.message).toMatch(/^messages\[1\]\.tool_calls\[0\]\.function\.arguments is not valid JSON/);
    expect(convertError(call('[1,2]')).message).toContain(
      'messages[1].tool_calls[0].function.arguments must be a JSON object',
    );
  });

  it('merges tool results and a following user message into one user message, tool results first', () => {
    const prompt = convertToAnthropicMessages(
      [
        { role: 'user', content: 'Weather and time?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
            { id: 'toolu_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '{"temp":21}' },
        { role: 'user', content: 'Also, hurry.' },
        { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: '12:00' }] },
      ],
      options,
    );
    expect(prompt.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(prompt.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"temp":21}' },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: '12:00' },
      { type: 'text', text: 'Also, hurry.' },
    ]);
  });

  it('merges consecutive user messages (Anthropic requires alternating roles)', () => {
    const prompt = convertToAnthropicMessages(
      [
        { role: 'user', content: 'One' },
        { role: 'user', content: 'Two' },
      ],
      options,
    );
    expect(prompt.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'One' },
          { type: 'text', text: 'Two' },
        ],
      },
    ]);
  });

  it('restores thinking (with its signature) and redacted thinking before the tool_use blocks', () => {
    const prompt = convertToAnthropicMessages(
      [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: 'Let me check.',
          reasoning: 'The user wants the weather.',
          reasoning_details: [
            { type: 'reasoning.text', text: 'The user wants', format: 'anthropic-claude-v1', index: 0 },
            { type: 'reasoning.text', text: ' the weather.', format: 'anthropic-claude-v1', index: 0 },
            { type: 'reasoning.text', signature, format: 'anthropic-claude-v1', index: 0 },
            { type: 'reasoning.encrypted', data: 'EmwKAhgBEgy3va3p', format: 'anthropic-claude-v1', index: 1 },
          ],
          tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
      ],
      options,
    );
    expect(prompt.messages[1]!.content).toEqual([
      { type: 'thinking', thinking: 'The user wants the weather.', signature },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3p' },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
    ]);
  });
});

describe('thinkingBlocksOf', () => {
  it('reads whole items as non-streamed responses carry them, one block per index', () => {
    expect(
      thinkingBlocksOf([
        { type: 'reasoning.text', text: 'First.', signature: 'sig-1', format: 'anthropic-claude-v1', index: 0 },
        { type: 'reasoning.text', text: 'Second.', signature: 'sig-2', format: 'anthropic-claude-v1', index: 1 },
      ]),
    ).toEqual([
      { type: 'thinking', thinking: 'First.', signature: 'sig-1' },
      { type: 'thinking', thinking: 'Second.', signature: 'sig-2' },
    ]);
  });

  it('drops thinking without a signature and reasoning from other providers', () => {
    expect(
      thinkingBlocksOf([
        { type: 'reasoning.text', text: 'Unsigned.', format: 'anthropic-claude-v1', index: 0 },
        { type: 'reasoning.text', text: 'Gemini thought', format: 'google-gemini-v1', index: 1 },
        { type: 'reasoning.encrypted', data: 'gemini-signature', id: 'call_1', format: 'google-gemini-v1', index: 2 },
        { type: 'reasoning.summary', summary: 'OpenAI summary', format: 'openai-responses-v1', index: 3 },
      ]),
    ).toEqual([]);
  });
});

describe('files, audio and refusals', () => {
  const pdf = `data:application/pdf;base64,${Buffer.from('%PDF-1.7 tiny').toString('base64')}`;
  const user = (part: unknown): ChatMessage[] => [{ role: 'user', content: [part] } as ChatMessage];
  const blocksOf = (messages: ChatMessage[]) => convertToAnthropicMessages(messages, options).messages[0]!.content;

  it('sends a PDF as a document block with its filename as title, and plain text as a text document', () => {
    expect(blocksOf(user({ type: 'file', file: { file_data: pdf, filename: 'paper.pdf' } }))).toEqual([
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: pdf.split(',')[1] },
        title: 'paper.pdf',
      },
    ]);
    const text = `data:text/plain;base64,${Buffer.from('plain words').toString('base64')}`;
    expect(blocksOf(user({ type: 'file', file: { file_data: text } }))).toEqual([
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
    ]);
  });

  it('refuses what Anthropic cannot take with a 400 naming the part and the model', () => {
    const refused = (part: unknown) => () => blocksOf(user(part));
    expect(refused({ type: 'file', file: { file_id: 'file-abc' } })).toThrow(
      'messages[0].content[0] is a file by id; model "claude/claude-sonnet-4" takes files only as data (file_data).',
    );
    expect(refused({ type: 'file', file: { file_data: 'data:application/zip;base64,UEsDBA==' } })).toThrow(
      'messages[0].content[0] is a file of type application/zip; model "claude/claude-sonnet-4" takes PDF and plain-text files.',
    );
    expect(refused({ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } })).toThrow(
      'Model "claude/claude-sonnet-4" does not accept audio (messages[0].content[0] is audio).',
    );
  });

  it('sends an assistant’s earlier refusal as what it said', () => {
    const prompt = convertToAnthropicMessages(
      [
        { role: 'user', content: 'do it' },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'I can’t help with that.' }] },
        { role: 'user', content: 'why?' },
      ] as ChatMessage[],
      options,
    );
    expect(prompt.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'I can’t help with that.' }],
    });
  });
});
