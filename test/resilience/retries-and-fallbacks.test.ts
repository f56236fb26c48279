// Retries and the `models` fallback list through the real gateway, against scripted upstreams.

import type OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { callerSecret } from '../gateway/harness.js';
import { waitFor } from '../support/wait-for.js';
import { answer, errorEvent, fail } from '../support/fake-openai.js';
import { dropAfterFirstChunk, primarySecret, startResilienceGateway, type ResilienceGateway } from './harness.js';

const hi = [{ role: 'user' as const, content: 'hi' }];
let setup: ResilienceGateway;

afterEach(async () => {
  await setup?.close();
});

interface ErrorBody {
  error: {
    code: number;
    message: string;
    metadata: { provider_name?: string; attempts?: { model: string; status: number; message: string }[] };
  };
}

async function post(body: Record<string, unknown>, signal?: AbortSignal) {
  const response = await fetch(`${setup.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as ErrorBody };
}

async function streamedText(model: string, models?: string[]) {
  const stream = await setup.client.chat.completions.create({
    model,
    messages: hi,
    stream: true,
    ...(models ? { models } : {}),
  } as never);
  let content = '';
  const modelsSeen = new Set<string>();
  for await (const chunk of stream as unknown as AsyncIterable<{
    model: string;
    choices: { delta: { content?: string } }[];
  }>) {
    content += chunk.choices[0]?.delta.content ?? '';
    modelsSeen.add(chunk.model);
  }
  return { content, models: [...modelsSeen] };
}

/** A whole completion of `model`, with `models` as the fallback list (a field the SDK does not type). */
function withFallbacks(model: string, models: string[]) {
  return setup.client.chat.completions.create({ model, models, messages: hi, stream: false } as never) as Promise<
    OpenAI.ChatCompletion & { provider?: string }
  >;
}

describe('retries before the first byte', () => {
  it('answers after an upstream 503 twice, streamed and not', async () => {
    setup = await startResilienceGateway();
    setup.primary.script(fail(503), fail(503));
    expect(await streamedText('primary/m1')).toEqual({ content: 'answer from primary', models: ['primary/m1'] });
    expect(setup.primary.chatRequests()).toHaveLength(3);

    setup.primary.script(fail(502), fail(500));
    const completion = await setup.client.chat.completions.create({ model: 'primary/m1', messages: hi, stream: false });
    expect(completion.choices[0]!.message.content).toBe('answer from primary');
    expect(setup.primary.chatRequests()).toHaveLength(6);
    expect(setup.usage.map((row) => [row.status, row.model, row.provider])).toEqual([
      [200, 'primary/m1', 'primary'],
      [200, 'primary/m1', 'primary'],
    ]);
  });

  it('honours a 429 Retry-After of 1 s before trying again', async () => {
    setup = await startResilienceGateway();
    setup.primary.script(fail(429, { headers: { 'retry-after': '1' } }));
    expect((await streamedText('primary/m1')).content).toBe('answer from primary');
    expect(setup.primary.chatRequests()).toHaveLength(2);
    // The backoff it chose is what the upstream asked (abortableSleep waits that long: upstream-attempts.test.ts).
    expect(setup.warnings).toEqual([
      expect.objectContaining({ model: 'primary/m1', attempt: 1, status: 429, retry_in_ms: 1_000 }),
    ]);
  });

  it('retries an error event that arrives before the first chunk, but never a stream that already began', async () => {
    setup = await startResilienceGateway();
    setup.primary.script(errorEvent());
    expect((await streamedText('primary/m1')).content).toBe('answer from primary');
    expect(setup.primary.chatRequests()).toHaveLength(2);

    setup.primary.script(dropAfterFirstChunk());
    const response = await post({ model: 'primary/m1', models: ['backup/m1'], messages: hi });
    expect(response.status).toBe(200);
    const events = response.text.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(events.at(-2)!.slice('data: '.length))).toMatchObject({
      model: 'primary/m1',
      error: { code: 502 },
      choices: [{ finish_reason: 'error' }],
    });
    expect(setup.primary.chatRequests()).toHaveLength(3);
    expect(setup.backup.chatRequests()).toHaveLength(0);
  });

  it('never retries a rejected upstream key (our 502), but falls back', async () => {
    setup = await startResilienceGateway();
    setup.primary.script(fail(401));
    const alone = await post({ model: 'primary/m1', messages: hi, stream: false });
    expect(alone.status).toBe(502);
    expect(setup.primary.chatRequests()).toHaveLength(1);
    setup.primary.script(fail(401));
    const completion = await withFallbacks('primary/m1', ['backup/m1']);
    expect(completion.model).toBe('backup/m1');
    expect(setup.primary.chatRequests()).toHaveLength(2);
  });

  it('never waits twice for an upstream that ran into our headers timeout; the fallback answers', async () => {
    setup = await startResilienceGateway({}, { headersTimeoutMs: 150 });
    setup.primary.script(answer('too late', { headersAfterMs: 1_000 }));
    const completion = await withFallbacks('primary/m1', ['backup/m1']);
    expect(completion.choices[0]!.message.content).toBe('answer from backup');
    expect(setup.primary.chatRequests()).toHaveLength(1);
  });

  it('never retries an upstream 400', async () => {
    setup = await startResilienceGateway();
    setup.primary.script(fail(400));
    const response = await post({ model: 'primary/m1', messages: hi, stream: false });
    expect(response.status).toBe(400);
    expect(response.json().error.message).toContain('scripted 400');
    expect(response.json().error.metadata.attempts).toBeUndefined();
    expect(response.headers.get('x-should-retry')).toBeNull();
    expect(setup.primary.chatRequests()).toHaveLength(1);
  });

  it('stops at once when the caller goes away during a backoff: no further upstream request', async () => {
    setup = await startResilienceGateway({ retry: { baseDelayMs: 600, maxDelayMs: 600 } });
    setup.primary.script(fail(503));
    const controller = new AbortController();
    const request = post({ model: 'primary/m1', models: ['backup/m1'], messages: hi }, controller.signal).catch(
      (error: unknown) => error,
    );
    await waitFor(() => setup.primary.chatRequests().length === 1, { what: 'the first attempt' });
    controller.abort();
    expect(await request).toBeInstanceOf(Error);
    await waitFor(() => setup.usage.length === 1, { what: 'the usage row' });
    // This row is written once the attempts have stopped (whole-answer.ts): none can follow it.
    expect(setup.usage[0]).toMatchObject({ status: 499, finish_reason: 'cancelled' });
    expect(setup.primary.chatRequests()).toHaveLength(1);
    expect(setup.backup.chatRequests()).toHaveLength(0);
  });
});

describe('the models fallback list', () => {
  it('answers from the fallback on another provider when the primary refuses connections; model names it', async () => {
    setup = await startResilienceGateway();
    expect(await streamedText('down/m1', ['backup/m2'])).toEqual({
      content: 'answer from backup',
      models: ['backup/m2'],
    });
    const completion = await withFallbacks('down/m1', ['backup/m2']);
    expect(completion).toMatchObject({ model: 'backup/m2', provider: 'backup' });
    expect(setup.backup.chatRequests().map((request) => request.body?.model)).toEqual(['m2', 'm2']);
    // The fallback list never travels upstream.
    expect(setup.backup.chatRequests()[0]!.body).not.toHaveProperty('models');
    expect(setup.usage.map((row) => [row.status, row.model, row.provider])).toEqual([
      [200, 'backup/m2', 'backup'],
      [200, 'backup/m2', 'backup'],
    ]);
  });

  it('skips an unknown fallback model and goes on to the next', async () => {
    setup = await startResilienceGateway();
    const completion = await withFallbacks('primary/nope', ['nobody/x', 'backup/m1']);
    expect(completion.model).toBe('backup/m1');
    expect(setup.primary.chatRequests()).toHaveLength(0);
  });

  it('answers at once for a malformed fallback id (400) or one that is neither an alias nor an id (404)', async () => {
    setup = await startResilienceGateway();
    const malformed = await post({ model: 'primary/m1', models: ['/gpt-4o'], messages: hi });
    expect(malformed.status).toBe(400);
    expect(malformed.json().error.message).toContain('"/gpt-4o"');
    const unknown = await post({ model: 'primary/m1', models: ['gpt-4o'], messages: hi });
    expect(unknown.status).toBe(404);
    expect(unknown.json().error.message).toContain('make "gpt-4o" an alias');
    expect(setup.primary.chatRequests()).toHaveLength(0);
  });

  it('when every attempt fails: the last status, the attempts in metadata, no secrets, x-should-retry false', async () => {
    setup = await startResilienceGateway();
    setup.primary.script(fail(503), fail(503), fail(503));
    setup.backup.script(fail(429, { headers: { 'retry-after': '120' } }));
    for (const stream of [true, false]) {
      if (!stream) {
        setup.primary.script(fail(503), fail(503), fail(503));
        setup.backup.script(fail(429, { headers: { 'retry-after': '120' } }));
      }
      const response = await post({ model: 'primary/m1', models: ['down/m1', 'backup/m1'], messages: hi, stream });
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('120');
      expect(response.headers.get('x-should-retry')).toBe('false');
      const { error } = response.json();
      expect(error.code).toBe(429);
      expect(error.metadata.provider_name).toBe('backup');
      const attempts = error.metadata.attempts ?? [];
      expect(attempts.map((attempt) => `${attempt.model} ${attempt.status}`)).toEqual([
        'primary/m1 503',
        'primary/m1 503',
        'primary/m1 503',
        'down/m1 502',
        'down/m1 502',
        'down/m1 502',
        'backup/m1 429',
      ]);
      expect(attempts[3]!.message).toMatch(/^Could not reach provider "down" at .*ECONNREFUSED$/);
      expect(response.text).not.toContain(primarySecret);
      expect(response.text).not.toContain(callerSecret);
    }
    expect(setup.usage.map((row) => [row.status, row.model, row.provider])).toEqual([
      [429, 'primary/m1', 'backup'],
      [429, 'primary/m1', 'backup'],
    ]);
  });
});

describe('patience', () => {
  it('a slow primary that answers is waited for, not abandoned', async () => {
    setup = await startResilienceGateway();
    setup.primary.script(answer('slow but fine', { headersAfterMs: 200 }));
    expect((await streamedText('primary/m1', ['backup/m1'])).content).toBe('slow but fine');
    expect(setup.backup.chatRequests()).toHaveLength(0);
  });
});
