// The API under /v1 with OpenAI's semantics, driven by clients that omit `stream` when they want one JSON object:
// the official `openai` SDK's default create() and parse(), and the AI SDK's generateText and generateObject with
// OpenRouter's provider. /api/v1 keeps the interface's default (a request without `stream` streams). The gateway
// key works as `Authorization: Bearer` and as `x-api-key`.

import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import { generateObject, generateText } from 'ai';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callerSecret } from '../gateway/harness.js';
import { openAIParameters, openRouterParameters } from '../support/request-parameters.js';
import { useResilienceGateway } from '../resilience/harness.js';
import { answer } from '../support/fake-openai.js';
import { replayReply } from '../support/recording-server.js';

const at = useResilienceGateway();

const hi = [{ role: 'user' as const, content: 'hi' }];

describe('/v1: OpenAI semantics', () => {
  it('answers the openai SDK’s default create() (no stream field) with one chat.completion object', async () => {
    const client = new OpenAI({ baseURL: at.v1, apiKey: callerSecret, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'primary/m1', messages: hi });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]!.message.content).toBe('answer from primary');
    expect(at.setup.primary.chatRequests()[0]!.body?.stream).toBe(false);
    expect(at.setup.usage).toHaveLength(1);
    expect(at.setup.usage[0]).toMatchObject({ model: 'primary/m1', streamed: false, status: 200 });
  });

  it('parses structured output with the openai SDK’s parse()', async () => {
    at.setup.primary.script(answer('{"city":"Paris","population":2100000}'));
    const client = new OpenAI({ baseURL: at.v1, apiKey: callerSecret, maxRetries: 0 });
    const City = z.object({ city: z.string(), population: z.number() });
    const completion = await client.chat.completions.parse({
      model: 'primary/m1',
      messages: hi,
      response_format: zodResponseFormat(City, 'city'),
    });
    expect(completion.choices[0]!.message.parsed).toEqual({ city: 'Paris', population: 2_100_000 });
    expect(at.setup.primary.chatRequests()[0]!.body?.response_format).toMatchObject({ type: 'json_schema' });
  });

  it('streams when asked to, as OpenAI does', async () => {
    const client = new OpenAI({ baseURL: at.v1, apiKey: callerSecret, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'primary/m1', messages: hi, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('answer from primary');
  });

  it('serves the AI SDK’s generateText and generateObject through OpenRouter’s provider', async () => {
    const openrouter = createOpenRouter({ baseURL: at.v1, apiKey: callerSecret });
    const { text } = await generateText({ model: openrouter('primary/m1'), prompt: 'hi', maxRetries: 0 });
    expect(text).toBe('answer from primary');

    at.setup.primary.script(answer('{"name":"Ada","born":1815}'));
    const { object } = await generateObject({
      model: openrouter('primary/m1'),
      schema: z.object({ name: z.string(), born: z.number() }),
      prompt: 'who?',
      maxRetries: 0,
    });
    expect(object).toEqual({ name: 'Ada', born: 1815 });
  });

  it('serves every endpoint under /v1 with the same keys: models, key, api-keys', async () => {
    for (const path of ['/models', '/api-keys']) {
      const response = await fetch(`${at.v1}${path}`, { headers: { authorization: `Bearer ${callerSecret}` } });
      expect(response.status, path).toBe(200);
      const spec = await fetch(`${at.setup.baseURL}${path}`, { headers: { authorization: `Bearer ${callerSecret}` } });
      const ids = (body: { data: { id: string }[] }) => body.data.map((entry) => entry.id);
      expect(ids((await response.json()) as { data: { id: string }[] }), path).toEqual(
        ids((await spec.json()) as { data: { id: string }[] }),
      );
    }
    const keyless = await fetch(`${at.v1}/models`);
    expect(keyless.status).toBe(401);
    expect(await keyless.json()).toEqual({
      error: { code: 401, message: 'Invalid or missing API key.', metadata: {} },
    });
  });
});

describe('the gateway key as x-api-key', () => {
  it('authenticates on /v1 and /api/v1 alike; a wrong one is the spec’s 401', async () => {
    for (const base of [at.v1, at.setup.baseURL]) {
      const ok = await fetch(`${base}/models`, { headers: { 'x-api-key': callerSecret } });
      expect(ok.status, base).toBe(200);
      const wrong = await fetch(`${base}/models`, { headers: { 'x-api-key': 'sk-sy-v1-nope' } });
      expect(wrong.status, base).toBe(401);
    }
  });
});

describe('/api/v1 keeps the interface’s default', () => {
  it('streams a request without `stream`', async () => {
    const response = await fetch(`${at.setup.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'primary/m1', messages: hi }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await response.text()).trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

describe('no silent drops', () => {
  it('delivers every parameter the openai SDK sends to an OpenAI-compatible upstream, unknown ones included', async () => {
    const client = new OpenAI({ baseURL: at.v1, apiKey: callerSecret, maxRetries: 0 });
    const parameters = { ...openAIParameters, reasoning_effort: 'minimal' } as const;
    const extras = openRouterParameters;
    await client.chat.completions.create({ model: 'primary/m1', messages: hi, ...parameters, ...extras } as never);
    expect(at.setup.primary.chatRequests()[0]!.body).toMatchObject({ ...parameters, ...extras });
  });
});

describe('content parts', () => {
  it('passes file (data and id), audio and refusal parts to an OpenAI-compatible upstream as they came', async () => {
    const client = new OpenAI({ baseURL: at.v1, apiKey: callerSecret, maxRetries: 0 });
    const messages = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'read these' },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0xLjc=', filename: 'a.pdf' } },
          { type: 'file', file: { file_id: 'file-abc123' } },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'refusal', refusal: 'I can’t.' }] },
      { role: 'user', content: 'please' },
    ];
    await client.chat.completions.create({ model: 'primary/m1', messages } as never);
    expect(at.setup.primary.chatRequests()[0]!.body?.messages).toEqual(messages);
  });
});

describe('response fidelity', () => {
  it('answers whole with refusal and logprobs on every choice (null when absent), and the upstream’s own fields', async () => {
    const response = await fetch(`${at.v1}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'primary/m1', messages: hi }),
    });
    const body = (await response.json()) as { choices: Record<string, unknown>[] };
    expect(body.choices[0]).toMatchObject({ logprobs: null, message: { refusal: null } });
    expect(body.choices[0]).toHaveProperty('logprobs', null);
    expect(body.choices[0]!.message).toHaveProperty('refusal', null);
  });

  it('passes the upstream’s log probabilities on in each streamed chunk', async () => {
    const entry = (token: string, logprob: number) => ({
      token,
      logprob,
      bytes: [...Buffer.from(token)],
      top_logprobs: [],
    });
    const chunk = (content: string, logprob: number, finish: string | null = null) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-lp',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm1',
        choices: [
          {
            index: 0,
            delta: { content },
            finish_reason: finish,
            logprobs: { content: [entry(content, logprob)], refusal: null },
          },
        ],
      })}\n\n`;
    at.setup.primary.script(() => replayReply(`${chunk('Hi', -0.1)}${chunk('!', -0.3, 'stop')}data: [DONE]\n\n`));
    const client = new OpenAI({ baseURL: at.v1, apiKey: callerSecret, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'primary/m1',
      messages: hi,
      stream: true,
      logprobs: true,
    });
    const tokens: [string, string, number][] = [];
    for await (const part of stream) {
      for (const token of part.choices[0]?.logprobs?.content ?? []) {
        tokens.push([part.choices[0]!.delta.content ?? '', token.token, token.logprob]);
      }
    }
    expect(tokens).toEqual([
      ['Hi', 'Hi', -0.1],
      ['!', '!', -0.3],
    ]);
    expect(at.setup.primary.chatRequests()[0]!.body?.logprobs).toBe(true);
  });
});
