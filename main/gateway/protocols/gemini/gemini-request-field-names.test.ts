// Gemini requests with fields under their proto names (snake_case), as the google-genai Python SDK writes them inside
// nested objects, read as the same request under JSON names; the caller's own keys (function arguments, schema
// property names) kept as they came.

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../shared/api/index.js';
import { rejectionOf } from '../../../../test/support/rejection.js';
import { parseCountTokensRequest, parseGenerateContentRequest, translateGeminiRequest } from './gemini-request.js';

const options = { model: 'oai/gpt-4o', stream: false };

const userSchema = { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] };

/** Every kind of field, spelled as proto field names wherever a client may (the Python SDK's body, and more). */
const protoSpelled = {
  contents: [
    {
      role: 'user',
      parts: [{ text: 'Look' }, { inline_data: { mime_type: 'image/png', data: 'iVBORw0KGgo=' } }],
    },
    {
      role: 'model',
      parts: [
        { function_call: { name: 'read_file', args: { file_path: '/a', max_bytes: 1 } }, thought_signature: 'c2ln' },
      ],
    },
    {
      role: 'user',
      parts: [
        { function_response: { name: 'read_file', response: { file_contents: 'x' } } },
        { file_data: { file_uri: 'https://example.com/a.png', mime_type: 'image/png' } },
      ],
    },
  ],
  system_instruction: { parts: [{ text: 'Be brief.' }] },
  tools: [
    {
      function_declarations: [
        { name: 'read_file', parameters_json_schema: userSchema, response_json_schema: { type: 'string' } },
        {
          name: 'list_dir',
          parameters: {
            type: 'OBJECT',
            properties: {
              dir_path: { type: 'STRING', max_length: 64, any_of: [{ type: 'STRING' }], nullable: true },
            },
            property_ordering: ['dir_path'],
          },
        },
      ],
    },
  ],
  tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['read_file'] } },
  safety_settings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }],
  cached_content: 'cachedContents/c1',
  generation_config: {
    temperature: 0.5,
    top_p: 0.9,
    top_k: 20,
    candidate_count: 1,
    max_output_tokens: 100,
    stop_sequences: ['END'],
    seed: 7,
    presence_penalty: 0.1,
    frequency_penalty: 0.2,
    response_mime_type: 'application/json',
    response_json_schema: { type: 'object', properties: { a_b: { type: 'string' } } },
    response_modalities: ['TEXT'],
    speech_config: { voice_config: { prebuilt_voice_config: { voice_name: 'Kore' } } },
    thinking_config: { thinking_level: 'LOW', include_thoughts: true },
  },
};

/** The same request under JSON names. */
const jsonSpelled = {
  contents: [
    {
      role: 'user',
      parts: [{ text: 'Look' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
    },
    {
      role: 'model',
      parts: [
        { functionCall: { name: 'read_file', args: { file_path: '/a', max_bytes: 1 } }, thoughtSignature: 'c2ln' },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'read_file', response: { file_contents: 'x' } } },
        { fileData: { fileUri: 'https://example.com/a.png', mimeType: 'image/png' } },
      ],
    },
  ],
  systemInstruction: { parts: [{ text: 'Be brief.' }] },
  tools: [
    {
      functionDeclarations: [
        { name: 'read_file', parametersJsonSchema: userSchema, responseJsonSchema: { type: 'string' } },
        {
          name: 'list_dir',
          parameters: {
            type: 'OBJECT',
            properties: { dir_path: { type: 'STRING', maxLength: 64, anyOf: [{ type: 'STRING' }], nullable: true } },
            propertyOrdering: ['dir_path'],
          },
        },
      ],
    },
  ],
  toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['read_file'] } },
  safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }],
  cachedContent: 'cachedContents/c1',
  generationConfig: {
    temperature: 0.5,
    topP: 0.9,
    topK: 20,
    candidateCount: 1,
    maxOutputTokens: 100,
    stopSequences: ['END'],
    seed: 7,
    presencePenalty: 0.1,
    frequencyPenalty: 0.2,
    responseMimeType: 'application/json',
    responseJsonSchema: { type: 'object', properties: { a_b: { type: 'string' } } },
    responseModalities: ['TEXT'],
    speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } },
    thinkingConfig: { thinkingLevel: 'LOW', includeThoughts: true },
  },
};

const failureOf = (call: () => unknown) => rejectionOf(ApiError, call);

describe('a Gemini request under proto field names', () => {
  it('is the request under JSON names, for a google-kind upstream, the caller’s keys untouched', () => {
    expect(parseGenerateContentRequest(protoSpelled).body).toEqual(jsonSpelled);
  });

  it('translates as the request under JSON names does', () => {
    const fromProto = translateGeminiRequest(parseGenerateContentRequest(protoSpelled).parsed, options);
    const fromJson = translateGeminiRequest(parseGenerateContentRequest(jsonSpelled).parsed, options);
    expect(fromProto).toEqual(fromJson);
    expect(fromProto).toMatchObject({
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          tool_calls: [{ function: { name: 'read_file', arguments: '{"file_path":"/a","max_bytes":1}' } }],
        },
        { role: 'tool', content: '{"file_contents":"x"}' },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
      ],
      tools: [
        { type: 'function', function: { name: 'read_file', parameters: userSchema } },
        {
          type: 'function',
          function: {
            name: 'list_dir',
            parameters: {
              type: 'object',
              properties: { dir_path: { type: ['string', 'null'], maxLength: 64, anyOf: [{ type: 'string' }] } },
              propertyOrdering: ['dir_path'],
            },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'read_file' } },
      temperature: 0.5,
      top_p: 0.9,
      max_tokens: 100,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      response_format: {
        type: 'json_schema',
        json_schema: { schema: { type: 'object', properties: { a_b: { type: 'string' } } } },
      },
      reasoning: { effort: 'low' },
    });
  });

  it('reads thinking_budget', () => {
    const body = {
      contents: [{ parts: [{ text: 'x' }] }],
      generation_config: { thinking_config: { thinking_budget: 0 } },
    };
    expect(translateGeminiRequest(parseGenerateContentRequest(body).parsed, options).reasoning).toEqual({
      enabled: false,
    });
  });

  it('names tools only Gemini runs by their JSON names', async () => {
    const body = { contents: [{ parts: [{ text: 'x' }] }], tools: [{ google_search: {}, code_execution: {} }] };
    const error = await failureOf(() => translateGeminiRequest(parseGenerateContentRequest(body).parsed, options));
    expect(error.message).toContain('tools[0].codeExecution, tools[0].googleSearch is a tool only Gemini models run');
  });

  it('reads :countTokens’ generate_content_request', () => {
    const body = { generate_content_request: { model: 'models/x', contents: [{ parts: [{ text: 'b' }] }] } };
    const read = parseCountTokensRequest(body);
    expect(read.parsed.contents[0]!.parts[0]!.text).toBe('b');
    expect(read.body).toEqual({ generateContentRequest: body.generate_content_request });
  });

  it('leaves fields it does not read unchecked, as before they were declared', () => {
    const body = {
      contents: [{ parts: [{ text: 'x', media_resolution: 'MEDIA_RESOLUTION_LOW' }] }],
      generation_config: { speech_config: 'Kore', image_config: { aspect_ratio: '1:1' } },
    };
    const read = parseGenerateContentRequest(body);
    expect(read.body).toEqual({
      contents: [{ parts: [{ text: 'x', mediaResolution: 'MEDIA_RESOLUTION_LOW' }] }],
      generationConfig: { speechConfig: 'Kore', imageConfig: { aspectRatio: '1:1' } },
    });
    expect(read.parsed.generationConfig).toEqual(read.body.generationConfig);
  });

  it('refuses a field given under both names with a 400 that names it', async () => {
    const body = {
      contents: [{ parts: [{ inlineData: { mimeType: 'image/png', mime_type: 'image/gif', data: '' } }] }],
    };
    const error = await failureOf(() => parseGenerateContentRequest(body));
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      'Invalid request: contents[0].parts[0].inlineData.mimeType is given twice, as "mimeType" and as "mime_type"; send one.',
    );
  });

  it('still names the field that is wrong, under its JSON name', async () => {
    const body = { contents: [{ parts: [{ inline_data: { data: 'AAAA' } }] }] };
    expect((await failureOf(() => parseGenerateContentRequest(body))).message).toMatch(
      /contents\[0\]\.parts\[0\]\.inlineData\.mimeType is required/,
    );
  });
});
