// Every error path of POST /chat/completions (and the envelope of Fastify's own errors), then proof that the
// server still answers normally.

import { connect } from 'node:net';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/use-harness.js';
import { callerSecret, rawRequest, sdkError, startHarness, upstreamSecret } from './harness.js';

const harness = useHarness(startHarness);

const invalidKeyBody = '{"error":{"code":401,"message":"Invalid or missing API key.","metadata":{}}}';
const user = { role: 'user', content: 'hi' };

function chat(body: unknown, headers: Record<string, string> = {}) {
  return rawRequest(harness(), '/chat/completions', {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers,
  });
}

function errorOf(response: { json: () => unknown }) {
  return (response.json() as { error: { code: number; message: string; metadata: Record<string, unknown> } }).error;
}

/** Streams through the SDK and returns what arrived before the SDK threw. */
async function streamUntilError(model: string) {
  const stream = await harness().client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  });
  let content = '';
  try {
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
  } catch (error) {
    return { content, error };
  }
  return { content, error: null };
}

describe('authentication', () => {
  it('answers a missing key with exactly the 401 body', async () => {
    const response = await rawRequest(harness(), '/chat/completions', {
      headers: { authorization: '' },
      body: JSON.stringify({ model: 'fake/gpt-test', messages: [user] }),
    });
    expect(response.status).toBe(401);
    expect(response.text).toBe(invalidKeyBody);
  });

  it('answers a bad key with exactly the 401 body, also through the SDK', async () => {
    const response = await chat(
      { model: 'fake/gpt-test', messages: [user] },
      { authorization: 'Bearer sk-sy-v1-wrong' },
    );
    expect(response.status).toBe(401);
    expect(response.text).toBe(invalidKeyBody);
    const client = new OpenAI({ baseURL: harness().baseURL, apiKey: 'sk-sy-v1-wrong', maxRetries: 0 });
    const error = await sdkError(
      client.chat.completions.create({ model: 'fake/gpt-test', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.status).toBe(401);
  });

  it('authenticates unknown /api/v1 routes before their 404, and hints at /api/v1 elsewhere', async () => {
    expect((await rawRequest(harness(), '/nope', { method: 'GET', headers: { authorization: '' } })).status).toBe(401);
    const unknown = await rawRequest(harness(), '/nope', { method: 'GET' });
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown)).toEqual({ code: 404, message: 'Not found: GET /api/v1/nope.', metadata: {} });
    const outside = await fetch(harness().baseURL.replace('/api/v1', '/chat/completions'), { method: 'POST' });
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { error: { message: string } }).error.message).toContain('/api/v1');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const response = await rawRequest(harness(), '/chat/completions', { method: 'GET' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(errorOf(response).code).toBe(405);
  });
});

describe('request errors', () => {
  it('answers malformed JSON with 400 in the error shape', async () => {
    const response = await chat('{"model": "fake/gpt-test", "messages": [');
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 400, message: 'The request body is not valid JSON.', metadata: {} },
    });
  });

  it.each([
    [{ messages: [user] }, 'model is required'],
    [{ model: 'fake/gpt-test' }, 'messages is required'],
    [{ model: 'fake/gpt-test', messages: [] }, 'messages must not be empty'],
    [{ model: 'fake/gpt-test', messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role must be one of'],
    [{ model: 'fake/gpt-test', messages: [user], temperature: 2.5 }, 'temperature must be <= 2'],
    [
      { model: 'fake/gpt-test', messages: [user, { role: 'tool', content: '{}' }] },
      'messages[1].tool_call_id is required when role is "tool"',
    ],
    [
      {
        model: 'fake/gpt-test',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'file:///etc/passwd' } }] }],
      },
      'messages[0].content[0].image_url.url must be a data URL',
    ],
    [
      { model: 'fake/gpt-test', messages: [{ role: 'user', content: [{ type: 'audio' }] }] },
      'messages[0].content[0].type must be',
    ],
    [{ model: '/gpt-test', messages: [user] }, 'must be of the form "<provider>/<model>"'],
  ])('answers %j with 400 naming the field', async (body, expected) => {
    const response = await chat(body);
    expect(response.status).toBe(400);
    const error = errorOf(response);
    expect(error.code).toBe(400);
    expect(error.message).toContain(expected);
  });

  it('answers 404 for a name that is neither an alias nor <provider>/<model>, naming both fixes', async () => {
    const response = await chat({ model: 'gpt-test', messages: [user] });
    expect(response.status).toBe(404);
    expect(errorOf(response)).toEqual({
      code: 404,
      message:
        'Model "gpt-test" is neither an alias nor "<provider>/<model>". Name a model as <provider>/<model> ' +
        '(GET /v1/models lists them), or make "gpt-test" an alias: switchyard models alias gpt-test PROVIDER/MODEL ' +
        '(or in the Providers screen).',
      metadata: {},
    });
  });

  it('answers 404 for an unknown provider and an unknown model, 501 for a kind without adapter', async () => {
    const provider = await chat({ model: 'nope/gpt-test', messages: [user] });
    expect(provider.status).toBe(404);
    expect(errorOf(provider).message).toBe('Unknown provider "nope". Configured providers: claude, down, fake.');
    const model = await chat({ model: 'fake/no-such-model', messages: [user] });
    expect(model.status).toBe(404);
    expect(errorOf(model).message).toContain('"no-such-model"');
    const kind = await chat({ model: 'claude/claude-sonnet-4', messages: [user] });
    expect(kind.status).toBe(501);
    expect(kind.headers.get('x-should-retry')).toBe('false');
  });

  it('answers a body over 10 MiB with 413 in the error shape', async () => {
    const response = await chat({
      model: 'fake/gpt-test',
      messages: [{ role: 'user', content: 'x'.repeat(11 * 1024 * 1024) }],
    });
    expect(response.status).toBe(413);
    expect(errorOf(response)).toMatchObject({ code: 413, metadata: {} });
  });

  it('rejects prototype-poisoning keys with 400 (Fastify calls them invalid JSON)', async () => {
    const response = await chat('{"model":"fake/gpt-test","messages":[],"__proto__":{"polluted":true}}');
    expect(response.status).toBe(400);
    expect(errorOf(response).message).toBe('The request body is not valid JSON.');
  });

  it('answers malformed HTTP in the error shape too', async () => {
    const { port } = new URL(harness().baseURL);
    const socket = connect(Number(port), '127.0.0.1');
    socket.end('NOT HTTP AT ALL\r\n\r\n');
    let text = '';
    for await (const piece of socket) text += String(piece);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(
      '{"error":{"code":400,"message":"Malformed HTTP request.","metadata":{}}}',
    );
  });

  it('answers a content type other than JSON with 415', async () => {
    const response = await chat('model=fake/gpt-test', { 'content-type': 'text/plain' });
    expect(response.status).toBe(415);
    expect(errorOf(response).message).toBe('Content-Type must be application/json.');
  });
});

describe('upstream errors before the first byte', () => {
  it('keeps a 429 and its Retry-After', async () => {
    const response = await chat({ model: 'fake/rate-limited', messages: [user], stream: false });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(errorOf(response)).toMatchObject({ code: 429, metadata: { provider_name: 'fake' } });
    const error = await sdkError(
      harness().client.chat.completions.create({
        model: 'fake/rate-limited',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
  });

  it('turns an upstream 401 into a 502 naming the provider, never a 401, without the key', async () => {
    const response = await chat({ model: 'fake/bad-key', messages: [user] });
    expect(response.status).toBe(502);
    const error = errorOf(response);
    expect(error.message).toBe('Provider "fake" rejected its API key (upstream 401).');
    expect(error.metadata.provider_name).toBe('fake');
    expect(response.text).not.toContain(upstreamSecret);
    expect(response.text).not.toContain(callerSecret);
  });

  it('turns an upstream 500 into a 502', async () => {
    const response = await chat({ model: 'fake/server-error', messages: [user], stream: false });
    expect(response.status).toBe(502);
    expect(errorOf(response).message).toContain('The server had an error');
  });

  it('answers 502 when the provider cannot be reached', async () => {
    const response = await chat({ model: 'down/any-model', messages: [user] });
    expect(response.status).toBe(502);
    expect(errorOf(response).message).toMatch(
      /^Could not reach provider "down" at http:\/\/127\.0\.0\.1:\d+\/v1: ECONNREFUSED$/,
    );
  });
});

describe('failures after the stream began', () => {
  it.each(['fake/garbage', 'fake/drop', 'fake/truncated'])(
    '%s: status 200, the SDK throws on the error chunk',
    async (model) => {
      const { content, error } = await streamUntilError(model);
      expect(content).toBe('Partial');
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as Error).message).toMatch(/Provider "fake"|provider "fake"/);
    },
  );

  it('ends with the OpenRouter error chunk and [DONE]', async () => {
    const response = await chat({ model: 'fake/garbage', messages: [user] });
    expect(response.status).toBe(200);
    const events = response.text.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const last = JSON.parse(events.at(-2)!.slice('data: '.length)) as Record<string, unknown>;
    expect(last).toMatchObject({
      object: 'chat.completion.chunk',
      model: 'fake/garbage',
      error: { code: 502, metadata: { provider_name: 'fake' } },
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
    });
  });
});

describe('after all of that', () => {
  it('still answers a normal request', async () => {
    const completion = await harness().client.chat.completions.create({
      model: 'fake/gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
    expect(completion.choices[0]!.message.content).toBe('Hello, world!');
  });
});
