import { describe, expect, it } from 'vitest';
import type { ApiError, ChatMessage } from '../../../shared/api/index.js';
import { imageQuestion, png, thrown } from '../test-support.js';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';

const options = { acceptsImages: true, modelLabel: 'gemini/gemini-2.5-flash' };

function convertError(messages: ChatMessage[], acceptsImages = true): ApiError {
  return thrown(() => convertToGeminiContents(messages, { ...options, acceptsImages }));
}

const weatherTurn: ChatMessage[] = [
  { role: 'user', content: 'Weather and time in Paris?' },
  {
    role: 'assistant',
    content: null,
    reasoning_details: [
      { type: 'reasoning.text', text: 'Two calls.', format: 'google-gemini-v1', index: 0 },
      { type: 'reasoning.encrypted', data: 'CtwDAdHtim9f', id: 'call_w', format: 'google-gemini-v1', index: 1 },
    ],
    tool_calls: [
      { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_t', type: 'function', function: { name: 'get_time', arguments: '' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_w', content: '{"temp":21}' },
  { role: 'tool', tool_call_id: 'call_t', content: '12:00' },
];

describe('convertToGeminiContents', () => {
  it('puts system and developer messages in systemInstruction and maps roles', () => {
    expect(
      convertToGeminiContents(
        [
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: [{ type: 'text', text: 'French.' }] },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Salut' },
          { role: 'user', content: [{ type: 'text', text: 'Again' }] },
        ],
        options,
      ),
    ).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'French.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Salut' }] },
        { role: 'user', parts: [{ text: 'Again' }] },
      ],
    });
  });

  it('turns base64 data URL images into inlineData', () => {
    const prompt = convertToGeminiContents(imageQuestion(`data:image/png;base64,${png}`), options);
    expect(prompt.contents[0]!.parts).toEqual([
      { text: 'What is this?' },
      { inlineData: { mimeType: 'image/png', data: png } },
    ]);
  });

  it('answers 400 for an http(s) image URL and for an image to a model without vision', () => {
    const image = (url: string): ChatMessage[] => [
      { role: 'user', content: [{ type: 'image_url', image_url: { url } }] },
    ];
    const byUrl = convertError(image('https://example.com/cat.png'));
    expect(byUrl.status).toBe(400);
    expect(byUrl.message).toBe(
      'messages[0].content[0] is an image by URL; Gemini models take images only as base64 data URLs ("data:image/png;base64,…").',
    );
    const noVision = convertError(image(`data:image/png;base64,${png}`), false);
    expect(noVision.message).toBe(
      'Model "gemini/gemini-2.5-flash" does not accept images (messages[0].content[0] is an image).',
    );
  });

  it('turns tool calls into functionCall parts with parsed args and the thought signature of the call', () => {
    const prompt = convertToGeminiContents(weatherTurn, options);
    expect(prompt.contents[1]).toEqual({
      role: 'model',
      parts: [
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CtwDAdHtim9f' },
        { functionCall: { name: 'get_time', args: {} } },
      ],
    });
  });

  it('turns tool results into functionResponse parts of one user turn, named after the call, as objects', () => {
    const prompt = convertToGeminiContents([...weatherTurn, { role: 'user', content: 'And tomorrow?' }], options);
    expect(prompt.contents).toHaveLength(3);
    expect(prompt.contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
        { functionResponse: { name: 'get_time', response: { result: '12:00' } } },
        { text: 'And tomorrow?' },
      ],
    });
  });

  it.each([
    ['[1,2]', { result: [1, 2] }],
    ['42', { result: 42 }],
    ['"text"', { result: 'text' }],
    ['null', { result: null }],
    ['not json', { result: 'not json' }],
  ])('wraps the non-object tool result %s', (content, response) => {
    const prompt = convertToGeminiContents(
      [weatherTurn[0]!, weatherTurn[1]!, { role: 'tool', tool_call_id: 'call_w', content }],
      options,
    );
    expect(prompt.contents[2]!.parts[0]).toEqual({ functionResponse: { name: 'get_weather', response } });
  });

  it('answers 400 for a tool result whose tool_call_id matches no earlier call', () => {
    const error = convertError([
      { role: 'user', content: 'x' },
      { role: 'tool', tool_call_id: 'call_nope', content: '1' },
    ]);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^messages\[1\]\.tool_call_id "call_nope" does not match/);
  });

  it('answers 400 naming the message for invalid tool-call arguments', () => {
    const error = convertError([
      { role: 'user', content: 'x' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{' } }],
      },
    ]);
    expect(error.message).toMatch(/^messages\[1\]\.tool_calls\[0\]\.function\.arguments is not valid JSON/);
  });

  it('puts a text signature on the last text part and ignores reasoning from other providers', () => {
    const prompt = convertToGeminiContents(
      [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Hello' },
            { type: 'text', text: ' there' },
          ],
          reasoning_details: [
            { type: 'reasoning.encrypted', data: 'text-signature', format: 'google-gemini-v1', index: 0 },
            { type: 'reasoning.text', text: 'x', signature: 'claude-sig', format: 'anthropic-claude-v1', index: 1 },
          ],
        },
      ],
      options,
    );
    expect(prompt.contents[1]!.parts).toEqual([
      { text: 'Hello' },
      { text: ' there', thoughtSignature: 'text-signature' },
    ]);
  });
});

describe('files and audio', () => {
  const user = (part: unknown): ChatMessage[] => [{ role: 'user', content: [part] } as ChatMessage];
  const partsOf = (messages: ChatMessage[]) => convertToGeminiContents(messages, options).contents[0]!.parts;

  it('sends a PDF and audio as inline data with their media types', () => {
    expect(
      partsOf(user({ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERg==', filename: 'a.pdf' } })),
    ).toEqual([{ inlineData: { mimeType: 'application/pdf', data: 'JVBERg==' } }]);
    expect(partsOf(user({ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }))).toEqual([
      { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
    ]);
  });

  it('refuses a file by id, an unknown audio format and media for a text-only model, naming the part and model', () => {
    expect(() => partsOf(user({ type: 'file', file: { file_id: 'file-1' } }))).toThrow(
      'messages[0].content[0] is a file by id; Gemini models take files only as data (file_data).',
    );
    expect(() => partsOf(user({ type: 'input_audio', input_audio: { data: 'AA==', format: 'opus' } }))).toThrow(
      'messages[0].content[0] is audio in "opus"',
    );
    expect(() =>
      convertToGeminiContents(user({ type: 'input_audio', input_audio: { data: 'AA==', format: 'wav' } }), {
        ...options,
        acceptsImages: false,
      }),
    ).toThrow('Model "gemini/gemini-2.5-flash" does not accept audio (messages[0].content[0] is audio).');
  });
});
