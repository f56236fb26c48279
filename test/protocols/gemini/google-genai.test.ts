// The Gemini API as the official @google/genai client uses it (generateContent, generateContentStream,
// countTokens, list, get), against a google-kind upstream (passed through untranslated) and openai- and
// anthropic-kind upstreams (translated): text, function calling over two turns, thinking with signatures given
// back, images, errors before and during the stream in Google's shape, usage and cost in the usage row.

import { ApiError, GoogleGenAI, type Content, type GenerateContentResponse, type Part } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { answer as anthropicAnswer } from '../../support/fake-anthropic.js';
import { answer as geminiAnswer, geminiFixture } from '../../support/fake-gemini.js';
import { answer as openaiAnswer } from '../../support/fake-openai.js';
import { rejectionOf } from '../../support/rejection.js';
import { useHarness } from '../../support/use-harness.js';
import { parisWeatherTurns } from './expected-turns.js';
import { anthropicModel, callerSecret, nativeModel, openAIModel, startGeminiHarness } from './harness.js';

const harness = useHarness(startGeminiHarness);

const failureOf = (call: () => Promise<unknown>) => rejectionOf(ApiError, call);

async function collect(stream: AsyncGenerator<GenerateContentResponse>): Promise<GenerateContentResponse[]> {
  const responses: GenerateContentResponse[] = [];
  for await (const response of stream) responses.push(response);
  return responses;
}

function partsOf(responses: readonly GenerateContentResponse[]) {
  return responses.flatMap((response) => response.candidates?.[0]?.content?.parts ?? []);
}

/** A model turn as gemini-cli keeps it in its history: thoughts dropped, adjacent text merged into the first part. */
function asGeminiCliKeepsThem(parts: readonly Part[]): Part[] {
  const kept: Part[] = [];
  for (const part of parts) {
    if (part.thought) continue;
    const last = kept.at(-1);
    if (last?.text !== undefined && part.text !== undefined && !last.functionCall && !part.functionCall) {
      kept[kept.length - 1] = { ...last, text: last.text + part.text };
    } else {
      kept.push({ ...part });
    }
  }
  return kept;
}

const weatherTool = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'The weather in a city',
      parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
};

describe('a google-kind provider: the Gemini API untranslated', () => {
  it('passes the body through unchanged and answers the upstream’s response, relabelled and priced', async () => {
    const { gemini, usage, client } = harness();
    gemini.script(geminiAnswer({ whole: JSON.parse(geminiFixture('gemini-response.json')) as unknown }));
    const contents: Content[] = [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { name: 'get_weather', args: { city: 'Lyon' } }, thoughtSignature: 'c2lnLW9sZA==' }],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: 'rain' } } }] },
    ];
    const response = await client().models.generateContent({
      model: nativeModel,
      contents,
      config: { tools: [weatherTool, { googleSearch: {} }], thinkingConfig: { includeThoughts: true }, seed: 3 },
    });

    const sent = gemini.generateRequests().at(-1)!;
    expect(sent.url).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    expect(sent.body).toMatchObject({
      contents,
      tools: [weatherTool, { googleSearch: {} }],
      generationConfig: { thinkingConfig: { includeThoughts: true }, seed: 3 },
    });
    expect(response.modelVersion).toBe(nativeModel);
    expect(response.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(response.candidates![0]!.content!.parts![2]!.thoughtSignature).toBe('CiwBVKhc7vB+vaaq6rA=');
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 70, thoughtsTokenCount: 40 });
    expect(usage.at(-1)).toMatchObject({
      model: nativeModel,
      provider: 'google',
      status: 200,
      streamed: false,
      prompt_tokens: 70,
      completion_tokens: 60,
      reasoning_tokens: 40,
      finish_reason: 'tool_calls',
      unpriced: false,
    });
    expect(usage.at(-1)!.cost).toBeGreaterThan(0);
    expect(usage.at(-1)!.app_title).toMatch(/^google-genai-sdk\//);
  });

  it('streams the upstream’s events as they came: thoughts, calls and their signatures', async () => {
    const { gemini, usage, client } = harness();
    gemini.script(geminiAnswer({ stream: 'gemini-thinking-tool-calls.sse.txt' }));
    const responses = await collect(
      await client().models.generateContentStream({ model: nativeModel, contents: 'Weather and time in Paris?' }),
    );
    const parts = partsOf(responses);
    expect(parts.filter((part) => part.thought).map((part) => part.text)).toHaveLength(2);
    expect(parts.filter((part) => part.functionCall).map((part) => part.functionCall!.name)).toEqual([
      'get_weather',
      'get_time',
    ]);
    expect(parts.find((part) => part.thoughtSignature)!.thoughtSignature).toMatch(/^CtwDAdHtim9fL0Vq/);
    expect(responses.every((response) => response.modelVersion === nativeModel)).toBe(true);
    expect(gemini.generateRequests().at(-1)!.url).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
    expect(usage.at(-1)).toMatchObject({ streamed: true, status: 200, prompt_tokens: 96, completion_tokens: 216 });
    expect(usage.at(-1)!.cost).toBeGreaterThan(0);
  });

  it('ends a stream the upstream fails mid-way with the error, which the SDK raises', async () => {
    const { gemini, usage, client } = harness();
    gemini.script(geminiAnswer({ stream: 'gemini-overloaded-mid-stream.sse.txt' }));
    const stream = await client().models.generateContentStream({ model: nativeModel, contents: 'A story' });
    const error = await failureOf(() => collect(stream));
    expect(error.status).toBe(503);
    expect(error.message).toContain('overloaded');
    expect(usage.at(-1)).toMatchObject({ status: 200, finish_reason: 'error' });
  });

  it('counts tokens upstream', async () => {
    const { client } = harness();
    const counted = await client().models.countTokens({ model: nativeModel, contents: 'one two three four' });
    expect(counted.totalTokens).toBe(4);
  });
});

describe('an openai-kind provider: translated', () => {
  it('answers text whole and streamed, priced in the usage row', async () => {
    const { openai, usage, client } = harness();
    openai.script(openaiAnswer('Bonjour'), openaiAnswer('Bonjour'));
    const whole = await client().models.generateContent({ model: openAIModel, contents: 'Say hello in French' });
    expect(whole.text).toBe('Bonjour');
    expect(whole.candidates![0]!.finishReason).toBe('STOP');
    expect(whole.usageMetadata).toEqual({ promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 });
    expect(usage.at(-1)).toMatchObject({ model: openAIModel, provider: 'oai', status: 200, prompt_tokens: 5 });
    expect(usage.at(-1)!.cost).toBeGreaterThan(0);

    const streamed = await collect(
      await client().models.generateContentStream({ model: openAIModel, contents: 'Say hello in French' }),
    );
    expect(streamed.map((response) => response.text ?? '').join('')).toBe('Bonjour');
    expect(streamed.at(-1)!.usageMetadata?.totalTokenCount).toBe(7);
    expect(usage.at(-1)).toMatchObject({ streamed: true, status: 200, completion_tokens: 2 });
  });

  it('calls functions over two turns: the call’s id comes back with its response', async () => {
    const { openai, client } = harness();
    const call = { id: 'call_abc', name: 'get_weather', arguments: '{"city":"Paris"}' };
    openai.script(openaiAnswer({ toolCalls: [call] }), openaiAnswer('Sunny in Paris.'));
    const ai = client();
    const config = { tools: [weatherTool], toolConfig: { functionCallingConfig: { mode: 'ANY' as never } } };
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }];
    const first = await collect(await ai.models.generateContentStream({ model: openAIModel, contents, config }));
    const callPart = partsOf(first).find((part) => part.functionCall)!;
    expect(callPart.functionCall).toEqual({ name: 'get_weather', args: { city: 'Paris' }, id: 'call_abc' });

    contents.push(
      { role: 'model', parts: [callPart] },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'get_weather', id: 'call_abc', response: { output: 'sunny' } } }],
      },
    );
    const second = await ai.models.generateContent({ model: openAIModel, contents, config });
    expect(second.text).toBe('Sunny in Paris.');
    const [firstRequest, secondRequest] = openai.chatRequests().slice(-2);
    expect(firstRequest!.body).toMatchObject({
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', parameters: weatherTool.functionDeclarations[0]!.parametersJsonSchema },
        },
      ],
      tool_choice: 'required',
    });
    expect(secondRequest!.body!.messages).toEqual(parisWeatherTurns('call_abc', '{"output":"sunny"}'));
  });

  it('sends images as data URLs', async () => {
    const { openai, client } = harness();
    openai.script(openaiAnswer('A red dot.'));
    const response = await client().models.generateContent({
      model: openAIModel,
      contents: [
        {
          role: 'user',
          parts: [{ text: 'What is it?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
        },
      ],
    });
    expect(response.text).toBe('A red dot.');
    expect((openai.chatRequests().at(-1)!.body!.messages as { content: unknown }[])[0]!.content).toEqual([
      { type: 'text', text: 'What is it?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ]);
  });

  it('ends a stream that fails mid-way with Google’s error, which the SDK raises', async () => {
    const { openai, client } = harness();
    openai.script(openaiAnswer('Once upon a time', { ending: 'garbage' }));
    const stream = await client().models.generateContentStream({ model: openAIModel, contents: 'A story' });
    const error = await failureOf(() => collect(stream));
    expect(error.status).toBe(502);
    expect(error.message).toContain('not JSON');
  });

  it('refuses tools only Gemini runs with a 400 that names them', async () => {
    const { client } = harness();
    const error = await failureOf(() =>
      client().models.generateContent({
        model: openAIModel,
        contents: 'hi',
        config: { tools: [{ googleSearch: {} }] },
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('tools[0].googleSearch is a tool only Gemini models run');
  });

  it('refuses a field given under both of its names with Google’s 400', async () => {
    const { client } = harness();
    const inlineData = { mimeType: 'image/png', mime_type: 'image/gif', data: 'iVBORw0KGgo=' } as never;
    const error = await failureOf(() =>
      client().models.generateContent({ model: openAIModel, contents: [{ role: 'user', parts: [{ inlineData }] }] }),
    );
    expect(error.status).toBe(400);
    expect(JSON.parse(error.message.slice(error.message.indexOf('{')))).toEqual({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message:
          'Invalid request: contents[0].parts[0].inlineData.mimeType is given twice, as "mimeType" and as "mime_type"; send one.',
      },
    });
  });

  it('estimates tokens with a tokenizer', async () => {
    const { client } = harness();
    const counted = await client().models.countTokens({ model: openAIModel, contents: 'How many tokens is this?' });
    expect(counted.totalTokens).toBeGreaterThan(5);
  });
});

describe('an anthropic-kind provider: translated', () => {
  it('round-trips thinking: signatures and redacted thinking come back to Anthropic in the next turn', async () => {
    const { anthropic, client } = harness();
    anthropic.script(anthropicAnswer({ stream: 'anthropic-thinking-tool-calls.sse.txt' }), anthropicAnswer({}));
    const ai = client();
    const config = { tools: [weatherTool], thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } };
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Weather and time in Paris?' }] }];
    const first = await collect(await ai.models.generateContentStream({ model: anthropicModel, contents, config }));
    const parts = partsOf(first);
    expect(
      parts
        .filter((part) => part.thought)
        .map((part) => part.text)
        .join(''),
    ).toContain('weather and the time');
    const calls = parts.filter((part) => part.functionCall);
    expect(calls.length).toBeGreaterThan(0);

    contents.push(
      { role: 'model', parts: asGeminiCliKeepsThem(parts) },
      {
        role: 'user',
        parts: calls.map((part) => ({
          functionResponse: { name: part.functionCall!.name!, id: part.functionCall!.id!, response: { output: 'ok' } },
        })),
      },
    );
    await collect(await ai.models.generateContentStream({ model: anthropicModel, contents, config }));
    const sent = anthropic.messageRequests().at(-1)!.body as {
      messages: { role: string; content: { type: string }[] }[];
    };
    const assistant = sent.messages.find((message) => message.role === 'assistant')!;
    expect(assistant.content.slice(0, 2)).toEqual([
      {
        type: 'thinking',
        thinking: 'The user wants the weather and the time in Paris. I can call both tools at once.',
        signature: expect.stringMatching(/^EqQBCkgIBxABGAIi/),
      },
      { type: 'redacted_thinking', data: expect.stringMatching(/^EmwKAhgBEgy3va3p/) },
    ]);
    expect(assistant.content.filter((block) => block.type === 'tool_use')).toHaveLength(calls.length);
  });
});

describe('errors in Google’s shape, keys, bases and the model list', () => {
  it('refuses a wrong key with Google’s 401, which the SDK raises', async () => {
    const { client, root } = harness();
    const error = await failureOf(() =>
      client({ apiKey: 'sk-wrong' }).models.generateContent({ model: openAIModel, contents: 'hi' }),
    );
    expect(error.status).toBe(401);
    const response = await fetch(`${root}/v1beta/models/${openAIModel}:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': 'sk-wrong', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: 401, message: 'Invalid or missing API key.', status: 'UNAUTHENTICATED' },
    });
  });

  it('takes the key as ?key= too, and serves under /api', async () => {
    const { openai, root, client } = harness();
    openai.script(openaiAnswer('via query'), openaiAnswer('via /api'));
    const response = await fetch(`${root}/v1beta/models/${openAIModel}:generateContent?key=${callerSecret}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(response.status).toBe(200);
    expect(
      ((await response.json()) as { candidates: { content: { parts: { text: string }[] } }[] }).candidates[0]!.content
        .parts[0]!.text,
    ).toBe('via query');
    const underApi = await client({ prefix: '/api' }).models.generateContent({ model: openAIModel, contents: 'hi' });
    expect(underApi.text).toBe('via /api');
  });

  it('answers an unknown model and an invalid body with Google’s 404 and 400', async () => {
    const { client } = harness();
    const unknown = await failureOf(() =>
      client().models.generateContent({ model: 'oai/no-such-model', contents: 'hi' }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.message).toContain('"status":"NOT_FOUND"');
    const notAlias = await failureOf(() =>
      client().models.generateContent({ model: 'gemini-9-ultra', contents: 'hi' }),
    );
    expect(notAlias.status).toBe(404);
    expect(notAlias.message).toContain('switchyard models alias gemini-9-ultra');
    const invalid = await failureOf(() =>
      client().models.generateContent({ model: openAIModel, contents: 'hi', config: { temperature: 5 } }),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.message).toContain('generationConfig.temperature must be <= 2');
  });

  it('lists the models and gets one in Google’s shape; an unknown one is a 404', async () => {
    const { client } = harness();
    const ai = client();
    const names: string[] = [];
    for await (const model of await ai.models.list()) names.push(model.name!);
    expect(names).toEqual([`models/${nativeModel}`, `models/${openAIModel}`, `models/${anthropicModel}`]);
    const model = await ai.models.get({ model: openAIModel });
    expect(model).toMatchObject({
      name: `models/${openAIModel}`,
      supportedActions: expect.arrayContaining(['generateContent']),
    });
    expect((await failureOf(() => ai.models.get({ model: 'oai/nope' }))).status).toBe(404);
  });

  it('serves Google’s stable v1, the SDK’s default, and v1beta when a client asks for it', async () => {
    const { openai, root } = harness();
    openai.script(openaiAnswer('via v1'), openaiAnswer('via v1beta'));
    const paths: string[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      paths.push(new URL(input instanceof Request ? input.url : input).pathname);
      return fetch(input, init);
    };
    const stable = new GoogleGenAI({ apiKey: callerSecret, httpOptions: { baseUrl: root, fetch: recordingFetch } });
    const beta = new GoogleGenAI({
      apiKey: callerSecret,
      httpOptions: { baseUrl: root, apiVersion: 'v1beta', fetch: recordingFetch },
    });
    expect((await stable.models.generateContent({ model: openAIModel, contents: 'hi' })).text).toBe('via v1');
    expect((await beta.models.generateContent({ model: openAIModel, contents: 'hi' })).text).toBe('via v1beta');
    expect(paths).toEqual([
      `/v1/models/${openAIModel}:generateContent`,
      `/v1beta/models/${openAIModel}:generateContent`,
    ]);
  });

  it('answers GET /v1/models in OpenAI’s shape to a Bearer key, in Google’s only to a key sent Google’s way', async () => {
    const { root } = harness();
    const openaiClient = new OpenAI({ apiKey: callerSecret, baseURL: `${root}/v1` });
    const ids: string[] = [];
    for await (const model of openaiClient.models.list()) ids.push(model.id);
    expect(ids).toEqual([nativeModel, openAIModel, anthropicModel]);
    const retrieved = await openaiClient.models.retrieve(openAIModel);
    expect(JSON.stringify(retrieved)).toContain(`"id":"${openAIModel}"`);
    expect(JSON.stringify(retrieved)).not.toContain('supportedGenerationMethods');

    const get = (path: string, headers: Record<string, string> = {}) => fetch(`${root}${path}`, { headers });
    // Bearer decides, whatever else comes with it.
    const both = await get('/v1/models', { authorization: `Bearer ${callerSecret}`, 'x-goog-api-key': callerSecret });
    expect(await both.json()).toMatchObject({ object: 'list', data: [{ id: nativeModel }, {}, {}] });
    const byQuery = await get(`/api/v1/models/${openAIModel}?key=${callerSecret}`);
    expect(await byQuery.json()).toMatchObject({ name: `models/${openAIModel}`, baseModelId: openAIModel });
    // A wrong key sent Google's way is Google's 401; no key at all is the OpenAI route's.
    const wrongKey = await get('/v1/models', { 'x-goog-api-key': 'sk-wrong' });
    expect(wrongKey.status).toBe(401);
    expect(await wrongKey.json()).toEqual({
      error: { code: 401, message: 'Invalid or missing API key.', status: 'UNAUTHENTICATED' },
    });
    const noKey = await get('/v1/models');
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({ error: { code: 401, message: 'Invalid or missing API key.', metadata: {} } });
  });

  it('answers a path under /v1beta that is no route with Google’s 404', async () => {
    const { root } = harness();
    const response = await fetch(`${root}/v1beta/cachedContents`, { headers: { 'x-goog-api-key': callerSecret } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });
});
