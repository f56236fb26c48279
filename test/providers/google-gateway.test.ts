// The Google adapter end to end: the official openai SDK → the real gateway → a fake Gemini server speaking the
// Gemini API (recorded SSE fixtures). Asserts both what the caller gets and what Gemini received.

import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { usageOf } from '../../main/providers/test-support.js';
import { geminiKey } from '../support/fake-gemini.js';
import { jsonReply, replayReply } from '../support/recording-server.js';
import { collect, imageMessage, lastEvents, png, startProviderHarness, weatherTools } from './provider-harness.js';

const harness = await startProviderHarness();
afterAll(() => harness.close());

const tools = weatherTools({
  type: 'object',
  additionalProperties: false,
  properties: { city: { type: 'string' }, unit: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
  required: ['city'],
});

function lastUpstream() {
  return harness.gemini.generateRequests().at(-1)!;
}

describe('Gemini through the gateway', () => {
  it('streams text with the role first, finish_reason and usage (cached, reasoning) in the last chunk', async () => {
    const { last } = await harness.streamHello('gemini/gemini-2.5-flash', 'STOP', { max_tokens: 500 });
    expect(last.usage).toEqual(usageOf(1543, 57, { cached: 1024, reasoning: 50 }));

    const sent = lastUpstream();
    expect(sent.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(sent.headers['x-goog-api-key']).toBe(geminiKey);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
      generationConfig: { temperature: 1.6, maxOutputTokens: 500 },
    });
  });

  it('streams two whole function calls that the SDK stream helper assembles intact', async () => {
    const stream = harness.client.chat.completions.stream({
      model: 'gemini/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Weather and time in Paris?' }],
      tools,
      tool_choice: 'required',
    });
    const completion = await stream.finalChatCompletion();
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const calls = choice.message.tool_calls!.map((call) => call.type === 'function' && call);
    expect(calls.map((call) => call && [call.function.name, JSON.parse(call.function.arguments)])).toEqual([
      ['get_weather', { city: 'Paris', unit: 'c' }],
      ['get_time', { tz: 'Europe/Paris' }],
    ]);
    expect(calls.every((call) => call && /^call_gemini_\d+$/.test(call.id))).toBe(true);
    expect(lastUpstream().body).toMatchObject({
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              parameters: {
                type: 'object',
                properties: { city: { type: 'string' }, unit: { type: 'string', nullable: true } },
                required: ['city'],
              },
            },
            { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
    });
  });

  it('round-trips the thought signature: the second turn carries it on the functionCall, with named responses', async () => {
    const first = await collect(
      await harness.client.chat.completions.create({
        model: 'gemini/gemini-2.5-flash',
        messages: [{ role: 'user', content: 'Weather and time in Paris?' }],
        tools,
        stream: true,
        reasoning: { effort: 'medium' },
      } as OpenAI.ChatCompletionCreateParamsStreaming),
    );
    expect((lastUpstream().body as { generationConfig: unknown }).generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: 8192, includeThoughts: true },
    });
    expect(first.map((chunk) => chunk.choices[0]?.delta.reasoning ?? '').join('')).toContain(
      'I will call both functions.',
    );
    const details = first.flatMap((chunk) => chunk.choices[0]?.delta.reasoning_details ?? []);
    const calls = first.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    const [weather, time] = calls;
    const signature = details.find((detail) => detail.type === 'reasoning.encrypted')!;
    expect(signature).toMatchObject({ id: weather!.id, format: 'google-gemini-v1' });

    await collect(
      await harness.client.chat.completions.create({
        model: 'gemini/gemini-2.5-flash',
        tools,
        stream: true,
        reasoning: { effort: 'medium' },
        messages: [
          { role: 'user', content: 'Weather and time in Paris?' },
          {
            role: 'assistant',
            content: null,
            reasoning_details: details,
            tool_calls: [weather, time].map((call) => ({
              id: call!.id!,
              type: 'function' as const,
              function: { name: call!.function!.name!, arguments: call!.function!.arguments! },
            })),
          } as OpenAI.ChatCompletionAssistantMessageParam,
          { role: 'tool', tool_call_id: time!.id!, content: '12:00' },
          { role: 'tool', tool_call_id: weather!.id!, content: '{"temp": 21}' },
        ],
      } as OpenAI.ChatCompletionCreateParamsStreaming),
    );
    expect((lastUpstream().body as { contents: unknown }).contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather and time in Paris?' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'get_weather', args: { city: 'Paris', unit: 'c' } },
            thoughtSignature:
              'CtwDAdHtim9fL0Vq3Bz1sQ8oO0yNxM2Xq1c9aPbKqRz4u7/EWxv+0JvIu2gFh0lT9yPzkK8Wm3hV4cZ1nJ6Rb2sT5pYq8dA==',
          },
          { functionCall: { name: 'get_time', args: { tz: 'Europe/Paris' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_time', response: { result: '12:00' } } },
          { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
        ],
      },
    ]);
  });

  it('sends images as inlineData; answers 400 for an image URL and for a model without vision', async () => {
    await harness.askAboutImage('gemini/gemini-2.5-flash');
    expect((lastUpstream().body as { contents: { parts: unknown[] }[] }).contents[0]!.parts[1]).toEqual({
      inlineData: { mimeType: 'image/png', data: png },
    });

    const before = harness.gemini.generateRequests().length;
    const byUrl = await harness.failedChat('gemini/gemini-2.5-flash', imageMessage('https://example.com/cat.png'));
    expect(byUrl.status).toBe(400);
    expect(byUrl.message).toContain('Gemini models take images only as base64 data URLs');
    const noVision = await harness.failedChat('gemini/gemini-1.0-pro', imageMessage());
    expect(noVision.status).toBe(400);
    expect(noVision.message).toContain('Model "gemini/gemini-1.0-pro" does not accept images');
    expect(harness.gemini.generateRequests()).toHaveLength(before);
  });

  it('answers a whole completion (stream = false) through :generateContent', async () => {
    const completion = await harness.client.chat.completions.create({
      model: 'gemini/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: false,
    });
    expect(lastUpstream().url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(completion.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'Hello from Gemini.' },
      finish_reason: 'stop',
    });
    expect(completion.usage).toMatchObject({
      prompt_tokens: 30,
      completion_tokens: 4,
      prompt_tokens_details: { cached_tokens: 16 },
    });
  });
});

describe('Gemini errors through the gateway', () => {
  it('turns a rejected key (400 API_KEY_INVALID) into a 502 naming the provider', async () => {
    await harness.expectRejectedKey('gemini-badkey/gemini-2.5-flash', 400, {
      error: { code: 400, status: 'INVALID_ARGUMENT' },
    });
  });

  it('keeps 429 RESOURCE_EXHAUSTED with a Retry-After from the body', async () => {
    const response = await harness.rawQuestion('gemini/gemini-rate-limited');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('23');
    expect(response.json()).toMatchObject({
      error: { code: 429, metadata: { provider_name: 'gemini', raw: { error: { status: 'RESOURCE_EXHAUSTED' } } } },
    });
  });

  it('turns 503 UNAVAILABLE into 503', async () => {
    const error = await harness.failedChat('gemini/gemini-overloaded');
    expect(error.status).toBe(503);
  });

  it.each([
    ['gemini/gemini-mid-stream-error', 'Once upon', 503],
    ['gemini/gemini-truncated', 'Hello, wörld! 👋', 502],
  ])('%s: status 200, the SDK throws on our error chunk', async (model, expected, code) => {
    const { content, failure } = await harness.streamUntilError(model);
    expect(content).toBe(expected);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toContain('Provider "gemini"');
    const raw = await harness.rawQuestion(model);
    expect(lastEvents(raw.text).beforeDone).toMatchObject({
      error: { code, metadata: { provider_name: 'gemini' } },
      choices: [{ finish_reason: 'error' }],
    });
  });

  it('asks for log probabilities and answers them in OpenAI’s shape, streamed and whole', async () => {
    type Step = [token: string, logprob: number];
    const logprobsResult = (steps: Step[]) => ({
      chosenCandidates: steps.map(([token, logProbability]) => ({ token, tokenId: 7, logProbability })),
      topCandidates: steps.map(([token, logProbability]) => ({
        candidates: [
          { token, tokenId: 7, logProbability },
          { token: 'ö', tokenId: 8, logProbability: -4.5 },
        ],
      })),
    });
    const usageMetadata = { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 };
    const candidate = (text: string, steps: Step[], finish: boolean) => ({
      content: { role: 'model', parts: [{ text }] },
      index: 0,
      ...(finish ? { finishReason: 'STOP' } : {}),
      logprobsResult: logprobsResult(steps),
    });
    const event = (text: string, steps: Step[], finish = false) =>
      `data: ${JSON.stringify({ candidates: [candidate(text, steps, finish)], ...(finish ? { usageMetadata } : {}) })}\r\n\r\n`;
    harness.gemini.script(() => replayReply(event('Hel', [['Hel', -0.25]]) + event('lo', [['lo', -0.5]], true)));

    const chunks = await collect(
      await harness.client.chat.completions.create({
        model: 'gemini/gemini-2.5-flash',
        messages: [{ role: 'user', content: 'Say hello' }],
        stream: true,
        logprobs: true,
        top_logprobs: 2,
      }),
    );
    expect(lastUpstream().body!.generationConfig).toMatchObject({ responseLogprobs: true, logprobs: 2 });
    const streamed = chunks.flatMap((chunk) => chunk.choices[0]?.logprobs?.content ?? []);
    expect(streamed).toEqual([
      {
        token: 'Hel',
        logprob: -0.25,
        bytes: [72, 101, 108],
        top_logprobs: [
          { token: 'Hel', logprob: -0.25, bytes: [72, 101, 108] },
          { token: 'ö', logprob: -4.5, bytes: [195, 182] },
        ],
      },
      expect.objectContaining({ token: 'lo', logprob: -0.5 }),
    ]);
    // Each token rides in the chunk of the text it belongs to.
    const withText = chunks.filter((chunk) => chunk.choices[0]?.delta.content === 'Hel');
    expect(withText[0]!.choices[0]!.logprobs?.content?.[0]?.token).toBe('Hel');

    harness.gemini.script(() =>
      jsonReply(200, {
        candidates: [
          candidate(
            'Hello',
            [
              ['Hel', -0.25],
              ['lo', -0.5],
            ],
            true,
          ),
        ],
        usageMetadata,
      }),
    );
    const whole = await harness.client.chat.completions.create({
      model: 'gemini/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Say hello' }],
      logprobs: true,
      stream: false,
    });
    expect(whole.choices[0]!.logprobs?.content?.map((entry) => [entry.token, entry.logprob])).toEqual([
      ['Hel', -0.25],
      ['lo', -0.5],
    ]);
    expect(lastUpstream().body!.generationConfig).toMatchObject({ responseLogprobs: true });
    expect(lastUpstream().body!.generationConfig).not.toHaveProperty('logprobs');
  });

  it('lists the models without the models/ prefix', async () => {
    const ids = (await harness.client.models.list()).data.map((model) => model.id);
    expect(ids).toContain('gemini/gemini-2.5-flash');
    expect(ids.some((id) => id.includes('models/'))).toBe(false);
  });
});
