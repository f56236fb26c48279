// POST /embeddings and the legacy POST /completions through the gateway with the official openai SDK: an
// OpenAI-compatible provider natively, Gemini through batchEmbedContents (floats and base64), a kind without
// embeddings or legacy completions, bad input, and usage rows.

import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../shared/api/index.js';
import { createAnthropicAdapter, createGoogleAdapter, createOpenAIAdapter } from '../../main/providers/index.js';
import { callerSecret } from '../gateway/harness.js';
import { expectErrorEnvelope } from '../support/error-envelope.js';
import { FakeAnthropic, anthropicKey } from '../support/fake-anthropic.js';
import { FakeGemini, geminiKey } from '../support/fake-gemini.js';
import { fakeEmbedding, FakeOpenAI } from '../support/fake-openai.js';
import { startTestGateway, type TestGateway } from '../support/test-gateway.js';

let openai: FakeOpenAI;
let gemini: FakeGemini;
let anthropic: FakeAnthropic;
let served: TestGateway;
let client: OpenAI;
let usage: UsageRecord[];

beforeAll(async () => {
  openai = new FakeOpenAI({ models: ['text-embedding-3-small'] });
  gemini = new FakeGemini({ models: ['text-embedding-004'] });
  anthropic = new FakeAnthropic({ models: ['claude-sonnet-4-20250514'] });
  served = await startTestGateway({
    providers: [
      { id: 'oai', baseUrl: await openai.start(), apiKey: 'sk-oai-upstream-0123456789' },
      { id: 'gem', kind: 'google', baseUrl: await gemini.start(), apiKey: geminiKey },
      { id: 'claude', kind: 'anthropic', baseUrl: await anthropic.start(), apiKey: anthropicKey },
    ],
    adapters: [createOpenAIAdapter(), createGoogleAdapter(), createAnthropicAdapter()],
    callers: { 'key-1': callerSecret },
  });
  usage = served.usage;
  client = new OpenAI({ baseURL: served.baseURL.replace(/\/api\/v1$/, '/v1'), apiKey: callerSecret, maxRetries: 0 });
});

afterAll(async () => {
  await served.close(500);
  await Promise.all([openai.close(), gemini.close(), anthropic.close()]);
});

describe('embeddings', () => {
  it('embeds through an OpenAI-compatible provider with its usage, and writes a usage row', async () => {
    const result = await client.embeddings.create({
      model: 'oai/text-embedding-3-small',
      input: ['hello', 'a longer input'],
      dimensions: 3,
      encoding_format: 'float',
    });
    expect(result.model).toBe('oai/text-embedding-3-small');
    expect(result.data.map((item) => item.embedding)).toEqual([
      fakeEmbedding('hello', 0),
      fakeEmbedding('a longer input', 1),
    ]);
    expect(result.usage).toMatchObject({ prompt_tokens: 19, total_tokens: 19 });
    const sent = openai.requests.find((request) => request.url === '/v1/embeddings')!;
    expect(sent.body).toMatchObject({
      model: 'text-embedding-3-small',
      dimensions: 3,
      input: ['hello', 'a longer input'],
    });
    expect(usage.at(-1)).toMatchObject({
      model: 'oai/text-embedding-3-small',
      provider: 'oai',
      status: 200,
      prompt_tokens: 19,
    });
  });

  it('embeds through Gemini’s batchEmbedContents, as floats and as base64 (what the SDK asks for by default)', async () => {
    const floats = await client.embeddings.create({
      model: 'gem/text-embedding-004',
      input: 'hi there',
      dimensions: 3,
      encoding_format: 'float',
    });
    expect(floats.data[0]!.embedding).toEqual(fakeEmbedding('hi there', 0));
    const sent = gemini.requests.find((request) => request.url.endsWith(':batchEmbedContents'))!;
    expect(sent.body).toEqual({
      requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'hi there' }] }, outputDimensionality: 3 },
      ],
    });
    // The SDK asks for base64 when no format is given and decodes it back into floats.
    const decoded = await client.embeddings.create({ model: 'gem/text-embedding-004', input: 'hi there' });
    expect(decoded.data[0]!.embedding).toEqual(fakeEmbedding('hi there', 0));
  });

  it('answers 400 for token ids sent to Gemini and for a provider kind without embeddings', async () => {
    await expect(client.embeddings.create({ model: 'gem/text-embedding-004', input: [1, 2, 3] })).rejects.toMatchObject(
      {
        status: 400,
        message: expect.stringContaining('embeds text only') as unknown,
      },
    );
    await expect(
      client.embeddings.create({ model: 'claude/claude-sonnet-4-20250514', input: 'x' }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('providers of kind anthropic have no embeddings API') as unknown,
    });
  });

  it('names a bad field in the error shape', async () => {
    const response = await fetch(`${client.baseURL}/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'oai/text-embedding-3-small', input: { text: 'no' } }),
    });
    await expectErrorEnvelope(
      response,
      400,
      'Invalid request: input must be a string, an array of strings, an array of token ids, or an array of token-id arrays.',
    );
  });
});

describe('legacy completions', () => {
  it('passes a fill-in-the-middle completion to an OpenAI-compatible provider, whole, with our model id and a usage row', async () => {
    const completion = await client.completions.create({
      model: 'oai/text-embedding-3-small',
      prompt: 'def add(a, b):',
      suffix: '\n',
      max_tokens: 16,
    });
    expect(completion.model).toBe('oai/text-embedding-3-small');
    expect(completion.choices[0]!.text).toBe('[def add(a, b):|\n]');
    expect(completion.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 3 });
    const sent = openai.requests.filter((request) => request.url === '/v1/completions').at(-1)!;
    expect(sent.body).toMatchObject({
      model: 'text-embedding-3-small',
      prompt: 'def add(a, b):',
      suffix: '\n',
      max_tokens: 16,
    });
    expect(usage.at(-1)).toMatchObject({
      provider: 'oai',
      streamed: false,
      status: 200,
      completion_tokens: 3,
      finish_reason: 'stop',
    });
  });

  it('streams one when asked, with usage reaching the usage row', async () => {
    const stream = await client.completions.create({
      model: 'oai/text-embedding-3-small',
      prompt: 'x = ',
      stream: true,
    });
    let text = '';
    const models = new Set<string>();
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? '';
      models.add(chunk.model);
    }
    expect(text).toBe('[x = |]');
    expect([...models]).toEqual(['oai/text-embedding-3-small']);
    const sent = openai.requests.filter((request) => request.url === '/v1/completions').at(-1)!;
    expect(sent.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(usage.at(-1)).toMatchObject({ streamed: true, status: 200, prompt_tokens: 4, completion_tokens: 3 });
  });

  it('answers 400 naming the fix for a provider that is not OpenAI-compatible', async () => {
    await expect(
      client.completions.create({ model: 'claude/claude-sonnet-4-20250514', prompt: 'x' }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('use /chat/completions') as unknown });
  });
});
