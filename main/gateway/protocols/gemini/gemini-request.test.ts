import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../shared/api/index.js';
import { encodeReasoningDetails } from '../responses/reasoning-carrier.js';
import { encodeThoughtSignature } from './thought-signature.js';
import { convertFromGeminiSchema } from './convert-from-gemini-schema.js';
import {
  chatRequestOf,
  parseCountTokensRequest,
  parseGenerateContentRequest,
  reasoningOf,
  translateGeminiRequest,
} from './gemini-request.js';

const options = { model: 'oai/gpt-4o', stream: false };

function translate(body: unknown) {
  return translateGeminiRequest(parseGenerateContentRequest(body).parsed, options);
}

function messageOf(error: unknown): string {
  if (!(error instanceof ApiError)) throw error;
  return `${error.status} ${error.message}`;
}

describe('parseGenerateContentRequest', () => {
  it('names Gemini fields in its errors', () => {
    expect(() => parseGenerateContentRequest({})).toThrow(/contents is required/);
    const badPart = { contents: [{ role: 'user', parts: [{ inlineData: { data: 'AAAA' } }] }] };
    expect(() => parseGenerateContentRequest(badPart)).toThrow(/contents\[0\]\.parts\[0\]\.inlineData\.mimeType/);
    const badConfig = { contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { temperature: 'hot' } };
    expect(() => parseGenerateContentRequest(badConfig)).toThrow(/generationConfig\.temperature must be a number/);
  });

  it('keeps fields it does not know, as they came (a google-kind upstream gets them)', () => {
    const body = { contents: [{ parts: [{ text: 'hi' }] }], someNewField: { its_key: 1 } };
    expect(parseGenerateContentRequest(body).parsed).toMatchObject({ someNewField: { its_key: 1 } });
    expect(parseGenerateContentRequest(body).body).toBe(body);
  });
});

describe('parseCountTokensRequest', () => {
  it('takes contents alone or a whole generateContentRequest', () => {
    expect(parseCountTokensRequest({ contents: [{ parts: [{ text: 'a' }] }] }).parsed.contents).toHaveLength(1);
    const inner = { generateContentRequest: { model: 'models/x', contents: [{ parts: [{ text: 'b' }] }] } };
    expect(parseCountTokensRequest(inner).parsed.contents[0]!.parts[0]!.text).toBe('b');
    expect(() => parseCountTokensRequest({})).toThrow(/contents is required/);
  });
});

describe('translateGeminiRequest: contents', () => {
  it('turns systemInstruction, user and model turns into messages', () => {
    const chat = translate({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Be kind.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hello ' }, { text: 'there' }] },
        { role: 'model', parts: [{ text: 'thinking…', thought: true }, { text: 'Hi!' }] },
        { role: 'user', parts: [{ text: 'Again' }] },
      ],
    });
    expect(chat.messages).toEqual([
      { role: 'system', content: 'Be brief.\nBe kind.' },
      { role: 'user', content: 'Hello there' },
      { role: 'assistant', content: 'Hi!' },
      { role: 'user', content: 'Again' },
    ]);
  });

  it('turns function calls and responses into tool calls and tool messages, over two turns', () => {
    const chat = translate({
      contents: [
        { role: 'user', parts: [{ text: 'Weather and time in Paris?' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            { functionCall: { name: 'get_time', args: {}, id: 'call-time' } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_time', id: 'call-time', response: { time: '12:00' } } },
            { functionResponse: { name: 'get_weather', response: { output: 'sunny' } } },
            { text: 'Thanks' },
          ],
        },
      ],
      tools: [{ functionDeclarations: [{ name: 'get_weather' }, { name: 'get_time' }] }],
    });
    expect(chat.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call-time', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call-time', content: '{"time":"12:00"}' },
      { role: 'tool', tool_call_id: 'call_1_0', content: '{"output":"sunny"}' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('refuses a function response that answers no call', () => {
    const body = { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }] };
    expect(messageOf(catchError(() => translate(body)))).toMatch(
      /^400 .*contents\[0\]\.parts\[0\]\.functionResponse "f" answers no functionCall/,
    );
  });

  it('turns images, PDFs, audio and image URLs into content parts', () => {
    const chat = translate({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'What is this?' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
            { inlineData: { mimeType: 'audio/mpeg', data: 'SUQz' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    });
    expect(chat.messages[0]!.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=' } },
      { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
    ]);
  });

  it('refuses a file by URI that is not an image by http(s) URL', () => {
    const body = { contents: [{ parts: [{ fileData: { mimeType: 'video/mp4', fileUri: 'files/abc' } }] }] };
    expect(messageOf(catchError(() => translate(body)))).toMatch(/^400 .*contents\[0\]\.parts\[0\]\.fileData/);
  });

  it('gives back the reasoning details our signatures carry, and Gemini’s own signatures as Gemini details', () => {
    const carried = [
      { type: 'reasoning.text', text: 'Let me think.', signature: 'sig-anthropic', format: 'anthropic-claude-v1' },
    ];
    const chat = translate({
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        {
          role: 'model',
          parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: encodeReasoningDetails(carried) }],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] },
        { role: 'model', parts: [{ text: 'Done', thoughtSignature: 'gemini-own-signature' }] },
        { role: 'user', parts: [{ text: 'ok' }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'f' }] }],
    });
    expect(chat.messages[1]!.reasoning_details).toEqual(carried);
    expect(chat.messages[3]!.reasoning_details).toEqual([
      { type: 'reasoning.encrypted', data: 'gemini-own-signature', format: 'google-gemini-v1' },
    ]);
  });

  it('reads our signatures as we send them (base64) and as a client may encode their bytes again (unpadded)', () => {
    const carried = [{ type: 'reasoning.text', text: '???>>>', signature: 'sig/+', format: 'anthropic-claude-v1' }];
    const sent = encodeThoughtSignature(carried);
    const reencoded = Buffer.from(sent, 'base64').toString('base64url');
    expect(reencoded).not.toBe(sent);
    const turn = (thoughtSignature: string) => [
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ text: 'Hello', thoughtSignature }] },
      { role: 'user', parts: [{ text: 'ok' }] },
    ];
    expect(translate({ contents: turn(sent) }).messages[1]!.reasoning_details).toEqual(carried);
    expect(translate({ contents: turn(reencoded) }).messages[1]!.reasoning_details).toEqual(carried);
  });
});

describe('translateGeminiRequest: tools and configuration', () => {
  const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];

  it('declares functions from parameters (Gemini schema) and parametersJsonSchema (JSON Schema)', () => {
    const chat = translate({
      contents,
      tools: [
        {
          functionDeclarations: [
            {
              name: 'search',
              description: 'Search',
              parameters: { type: 'OBJECT', properties: { q: { type: 'STRING', nullable: true } }, required: ['q'] },
            },
            { name: 'read', parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } } } },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['search'] } },
    });
    expect(chat.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'search',
          description: 'Search',
          parameters: { type: 'object', properties: { q: { type: ['string', 'null'] } }, required: ['q'] },
        },
      },
      {
        type: 'function',
        function: { name: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
      },
    ]);
    expect(chat.tool_choice).toEqual({ type: 'function', function: { name: 'search' } });
  });

  it.each([
    [{ mode: 'AUTO' }, 'auto'],
    [{ mode: 'NONE' }, 'none'],
    [{ mode: 'ANY' }, 'required'],
    [
      { mode: 'AUTO', allowedFunctionNames: ['a', 'b'] },
      {
        type: 'allowed_tools',
        allowed_tools: {
          mode: 'auto',
          tools: [
            { type: 'function', function: { name: 'a' } },
            { type: 'function', function: { name: 'b' } },
          ],
        },
      },
    ],
  ])('maps functionCallingConfig %j', (functionCallingConfig, expected) => {
    const chat = translate({
      contents,
      tools: [{ functionDeclarations: [{ name: 'a' }, { name: 'b' }] }],
      toolConfig: { functionCallingConfig },
    });
    expect(chat.tool_choice).toEqual(expected);
  });

  it('refuses tools only Gemini runs, naming them', () => {
    const body = { contents, tools: [{ googleSearch: {} }, { codeExecution: {} }] };
    expect(messageOf(catchError(() => translate(body)))).toMatch(
      /^400 Invalid request: tools\[0\]\.googleSearch, tools\[1\]\.codeExecution is a tool only Gemini models run/,
    );
  });

  it('maps generationConfig to the chat parameters', () => {
    const chat = translate({
      contents,
      generationConfig: {
        temperature: 0.3,
        topP: 0.9,
        topK: 40,
        maxOutputTokens: 256,
        stopSequences: ['END'],
        candidateCount: 2,
        seed: 7,
        presencePenalty: 0.5,
        frequencyPenalty: 0.25,
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object', properties: { a: { type: 'string' } } },
      },
    });
    expect(chat).toMatchObject({
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      max_tokens: 256,
      stop: ['END'],
      n: 2,
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'response', schema: { type: 'object', properties: { a: { type: 'string' } } } },
      },
    });
  });

  it('asks for a JSON object when the mime type is JSON without a schema; a Gemini schema is converted', () => {
    expect(translate({ contents, generationConfig: { responseMimeType: 'application/json' } }).response_format).toEqual(
      {
        type: 'json_object',
      },
    );
    const schema = translate({
      contents,
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'ARRAY', items: { type: 'INTEGER' } },
      },
    }).response_format as unknown as { json_schema: { schema: unknown } };
    expect(schema.json_schema.schema).toEqual({ type: 'array', items: { type: 'integer' } });
  });
});

describe('reasoningOf', () => {
  it.each([
    [undefined, undefined],
    [{ includeThoughts: true }, { enabled: true }],
    [{ includeThoughts: false }, undefined],
    [{ thinkingBudget: 0 }, { enabled: false }],
    [{ thinkingBudget: -1, includeThoughts: true }, { enabled: true }],
    [{ thinkingBudget: 2048, includeThoughts: true }, { max_tokens: 2048 }],
    [{ thinkingBudget: 2048 }, { max_tokens: 2048, exclude: true }],
    [{ thinkingLevel: 'HIGH', includeThoughts: true }, { effort: 'high' }],
    [{ thinkingLevel: 'low' }, { effort: 'low', exclude: true }],
  ])('thinkingConfig %j → %j', (thinkingConfig, expected) => {
    const config = thinkingConfig === undefined ? undefined : { thinkingConfig };
    const parsed = parseGenerateContentRequest({
      contents: [{ parts: [{ text: 'x' }] }],
      generationConfig: config,
    }).parsed;
    expect(reasoningOf(parsed.generationConfig)).toEqual(expected);
  });
});

describe('chatRequestOf', () => {
  it('is lenient: the native path routes and estimates with it, Gemini-only tools included', () => {
    const parsed = parseGenerateContentRequest({
      contents: [{ parts: [{ text: 'hi' }] }],
      tools: [{ googleSearch: {} }],
    }).parsed;
    expect(chatRequestOf(parsed, { model: 'google/gemini-2.5-pro', stream: true })).toEqual({
      model: 'google/gemini-2.5-pro',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
  });
});

describe('convertFromGeminiSchema', () => {
  it('lower-cases types, turns nullable into a null type and keeps the rest', () => {
    expect(
      convertFromGeminiSchema({
        type: 'OBJECT',
        properties: {
          tags: { type: 'ARRAY', items: { type: 'STRING', enum: ['a', 'b'] }, maxItems: 3 },
          choice: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], nullable: true },
          any: { type: 'TYPE_UNSPECIFIED', description: 'anything' },
        },
        required: ['tags'],
        propertyOrdering: ['tags', 'choice'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 3 },
        choice: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
        any: { description: 'anything' },
      },
      required: ['tags'],
      propertyOrdering: ['tags', 'choice'],
    });
  });
});

function catchError(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
