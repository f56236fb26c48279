// Caller disconnects, keys, models, usage rows and graceful close.

import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/use-harness.js';
import { waitFor } from '../support/wait-for.js';
import { callerSecret, otherSecret, rawRequest, startHarness } from './harness.js';

const hi: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }];

describe('with a shared gateway', () => {
  const harness = useHarness(startHarness);

  it('aborts the upstream request when the caller disconnects mid-stream, and records "cancelled"', async () => {
    const controller = new AbortController();
    const stream = await harness().client.chat.completions.create(
      { model: 'fake/slow', messages: hi, stream: true },
      { signal: controller.signal },
    );
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value?.choices[0]?.delta.content).toBe('Still');
    const generationId = first.value!.id;
    controller.abort();
    const upstreamRequest = harness().upstream.chatRequests().at(-1)!;
    await waitFor(() => upstreamRequest.closedEarly, { what: 'the upstream request to be closed' });
    await waitFor(() => harness().usage.some((row) => row.id === generationId), { what: 'the usage row' });
    expect(harness().usage.find((row) => row.id === generationId)).toMatchObject({
      finish_reason: 'cancelled',
      status: 200,
      streamed: true,
      provider: 'fake',
    });
  });

  it('aborts the upstream request when the caller of a whole completion goes away', async () => {
    const controller = new AbortController();
    const before = harness().upstream.chatRequests().length;
    const pending = harness()
      .client.chat.completions.create(
        { model: 'fake/slow', messages: hi, stream: false },
        { signal: controller.signal },
      )
      .catch((error: unknown) => error);
    await waitFor(() => harness().upstream.chatRequests().length > before, { what: 'the upstream request' });
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    const upstreamRequest = harness().upstream.chatRequests().at(-1)!;
    await waitFor(() => upstreamRequest.closedEarly, { what: 'the upstream request to be closed' });
    await waitFor(() => harness().usage.some((row) => !row.streamed && row.finish_reason === 'cancelled'), {
      what: 'the cancelled usage row',
    });
  });

  it('lists models with provider-prefixed ids; an unreachable provider contributes none', async () => {
    const response = await rawRequest(harness(), '/models', { method: 'GET' });
    expect(response.status).toBe(200);
    const { data } = response.json() as { data: { id: string; name: string; owned_by?: string }[] };
    expect(data.map((model) => model.id)).toContain('fake/gpt-test');
    expect(data.every((model) => model.id.startsWith('fake/'))).toBe(true);
    expect(data.find((model) => model.id === 'fake/gpt-test')).toMatchObject({ name: 'gpt-test', owned_by: 'fake' });
    const listed = [];
    for await (const model of harness().client.models.list()) listed.push(model.id);
    expect(listed).toContain('fake/tool-model');
  });

  it('records usage rows with app headers, tokens, statuses and finish reasons', async () => {
    const client = new OpenAI({
      baseURL: harness().baseURL,
      apiKey: callerSecret,
      maxRetries: 0,
      defaultHeaders: { 'X-Title': 'Usage Test', 'HTTP-Referer': 'https://usage.test' },
    });
    const stream = await client.chat.completions.create({ model: 'fake/gpt-test', messages: hi, stream: true });
    let streamedId = '';
    for await (const chunk of stream) streamedId = chunk.id;
    const whole = await client.chat.completions.create({ model: 'fake/tool-model', messages: hi, stream: false });
    await client.chat.completions.create({ model: 'fake/rate-limited', messages: hi }).catch(() => undefined);
    const broken = await client.chat.completions.create({ model: 'fake/garbage', messages: hi, stream: true });
    await (async () => {
      for await (const _chunk of broken);
    })().catch(() => undefined);
    const rowsBefore = harness().usage.length;
    await client.chat.completions
      .create({ model: 'fake/gpt-test', messages: [], stream: false })
      .catch(() => undefined);

    const rows = harness().usage.filter((row) => row.app_title === 'Usage Test');
    expect(harness().usage.length).toBe(rowsBefore); // an invalid body gets no row
    expect(rows).toHaveLength(4);
    const [streamed, toolCalls, limited, failed] = rows;
    expect(streamed).toMatchObject({
      id: streamedId,
      key_id: 'key-1',
      app_title: 'Usage Test',
      app_referer: 'https://usage.test',
      model: 'fake/gpt-test',
      provider: 'fake',
      streamed: true,
      status: 200,
      finish_reason: 'stop',
      prompt_tokens: 12,
      completion_tokens: 3,
      cached_tokens: 4,
      reasoning_tokens: 2,
      cost: null,
      error: null,
    });
    expect(streamed!.ttft_ms).not.toBeNull();
    expect(streamed!.latency_ms).toBeGreaterThanOrEqual(streamed!.ttft_ms!);
    expect(toolCalls).toMatchObject({
      id: whole.id,
      streamed: false,
      status: 200,
      finish_reason: 'tool_calls',
      prompt_tokens: 12,
    });
    expect(limited).toMatchObject({ status: 429, finish_reason: null, ttft_ms: null, prompt_tokens: 0 });
    expect(limited!.error).toContain('rate limiting');
    expect(failed).toMatchObject({ status: 200, finish_reason: 'error', model: 'fake/garbage' });
    expect(failed!.error).toContain('not JSON');
  });

  it('lists keys without secrets, deletes one so that it stops working at once, 404s an unknown id', async () => {
    const list = await rawRequest(harness(), '/api-keys', { method: 'GET' });
    expect(list.status).toBe(200);
    expect((list.json() as { data: { id: string }[] }).data.map((key) => key.id)).toEqual(['key-1', 'key-2']);
    expect(list.text).not.toContain(callerSecret);
    expect(list.text).not.toContain(otherSecret);

    const other = new OpenAI({ baseURL: harness().baseURL, apiKey: otherSecret, maxRetries: 0 });
    await expect(
      other.chat.completions.create({ model: 'fake/gpt-test', messages: hi, stream: false }),
    ).resolves.toBeDefined();
    const deleted = await rawRequest(harness(), '/api-keys/key-2', { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.json()).toEqual({ data: { id: 'key-2', deleted: true } });
    const error = await other.chat.completions
      .create({ model: 'fake/gpt-test', messages: hi, stream: false })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);

    const unknown = await rawRequest(harness(), '/api-keys/key-404', { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 404, message: 'No API key has the id "key-404".', metadata: {} } });
  });
});

describe('graceful close', () => {
  it('ends an in-flight stream with the shutdown error chunk and [DONE], aborting the upstream', async () => {
    const harness = await startHarness();
    try {
      const response = await fetch(`${harness.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fake/slow', messages: hi }),
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).toContain('"Still"');
      const closing = harness.gateway.close(50);
      let rest = '';
      for (let read = await reader.read(); !read.done; read = await reader.read())
        rest += new TextDecoder().decode(read.value);
      await closing;
      const events = rest.split('\n\n').filter(Boolean);
      expect(events.at(-1)).toBe('data: [DONE]');
      expect(JSON.parse(events.at(-2)!.slice('data: '.length))).toMatchObject({
        error: { code: 503, message: 'Switchyard is shutting down' },
        choices: [{ finish_reason: 'error' }],
      });
      const upstreamRequest = harness.upstream.chatRequests().at(-1)!;
      await waitFor(() => upstreamRequest.closedEarly, { what: 'the upstream request to be closed' });
      expect(harness.usage.at(-1)).toMatchObject({ finish_reason: 'error', error: 'Switchyard is shutting down' });
      await expect(fetch(`${harness.baseURL}/models`)).rejects.toThrow(); // no longer listening
    } finally {
      await harness.close();
    }
  });

  it('lets a stream that finishes within the grace period end normally', async () => {
    const harness = await startHarness();
    try {
      const stream = await harness.client.chat.completions.create({
        model: 'fake/slow-finish',
        messages: hi,
        stream: true,
      });
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      const iterator = stream[Symbol.asyncIterator]();
      chunks.push((await iterator.next()).value!);
      const closing = harness.gateway.close(10_000);
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) chunks.push(next.value);
      await closing;
      expect(chunks.map((chunk) => chunk.choices[0]!.delta.content ?? '').join('')).toBe('01234');
      expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    } finally {
      await harness.close();
    }
  });

  it('sends keep-alive comments while the upstream is silent', async () => {
    const harness = await startHarness({ keepAliveMs: 20 });
    try {
      const controller = new AbortController();
      const response = await fetch(`${harness.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fake/slow', messages: hi }),
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const keepAlive = ': SWITCHYARD PROCESSING';
      const events = () => text.split('\n\n').slice(0, -1); // the last piece is still arriving
      const silentKeepAlives = () => events().slice(events().findIndex((event) => event.startsWith('data: ')) + 1);
      while (!events().some((event) => event.startsWith('data: ')) || silentKeepAlives().length < 2) {
        text += decoder.decode((await reader.read()).value, { stream: true });
      }
      controller.abort();
      // The upstream's one chunk, and after it nothing but keep-alive comments: no data of ours, no end.
      const data = events().filter((event) => event.startsWith('data: '));
      expect(data).toHaveLength(1);
      expect(JSON.parse(data[0]!.slice('data: '.length))).toMatchObject({ choices: [{ delta: { content: 'Still' } }] });
      expect(
        events()
          .filter((event) => !event.startsWith('data: '))
          .every((event) => event === keepAlive),
      ).toBe(true);
    } finally {
      await harness.close();
    }
  });
});
