// While no upstream has answered yet (slow headers, a slow first token, retries backing off), a streaming caller
// gets `: SWITCHYARD PROCESSING` comment lines instead of silence; SDKs ignore them.

import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { callerSecret } from '../gateway/harness.js';
import { answer, fail } from '../support/fake-openai.js';
import { startResilienceGateway, type ResilienceGateway } from './harness.js';

const hi = [{ role: 'user' as const, content: 'hi' }];
let setup: ResilienceGateway;

afterEach(async () => {
  await setup?.close();
});

async function rawStream(body: Record<string, unknown>) {
  const response = await fetch(`${setup.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: hi, ...body }),
  });
  const events = (await response.text()).split('\n\n').filter(Boolean);
  return { status: response.status, events };
}

function beforeFirstData(events: string[]): string[] {
  const firstData = events.findIndex((event) => event.startsWith('data: '));
  return events.slice(0, firstData);
}

async function sdkText(model: string): Promise<string> {
  const stream = await setup.client.chat.completions.create({ model, messages: hi, stream: true });
  let content = '';
  for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
  return content;
}

describe('keep-alive comments before the first token', () => {
  it.each([
    ['the upstream is slow to answer at all', { headersAfterMs: 400 }],
    ['the upstream answers, then is slow to send its first chunk', { firstChunkAfterMs: 400 }],
  ])('when %s', async (_case, timing) => {
    setup = await startResilienceGateway({ keepAliveMs: 50 });
    setup.primary.script(answer('late answer', timing));
    const { status, events } = await rawStream({ model: 'primary/m1' });
    expect(status).toBe(200);
    const comments = beforeFirstData(events);
    expect(comments.length).toBeGreaterThan(0);
    expect(new Set(comments)).toEqual(new Set([': SWITCHYARD PROCESSING']));
    expect(events.at(-1)).toBe('data: [DONE]');

    setup.primary.script(answer('late answer', timing));
    expect(await sdkText('primary/m1')).toBe('late answer');
  });

  it('while retries back off', async () => {
    setup = await startResilienceGateway({ keepAliveMs: 50, retry: { baseDelayMs: 300, maxDelayMs: 300 } });
    setup.primary.script(fail(503), fail(503));
    const { events } = await rawStream({ model: 'primary/m1' });
    expect(beforeFirstData(events).length).toBeGreaterThan(0);
    const content = events
      .filter((event) => event.startsWith('data: {'))
      .map((event) => (JSON.parse(event.slice(6)) as { choices: { delta: { content?: string } }[] }).choices)
      .map((choices) => choices[0]?.delta.content ?? '')
      .join('');
    expect(content).toBe('answer from primary');
    expect(setup.primary.chatRequests()).toHaveLength(3);
  });

  it('a failure after the stream opened early travels as the error chunk, with the attempts', async () => {
    setup = await startResilienceGateway({ keepAliveMs: 50, retry: { baseDelayMs: 150, maxDelayMs: 150 } });
    setup.primary.script(fail(503), fail(503), fail(503));
    const { status, events } = await rawStream({ model: 'primary/m1' });
    expect(status).toBe(200);
    expect(beforeFirstData(events).length).toBeGreaterThan(0);
    expect(events.at(-1)).toBe('data: [DONE]');
    const last = JSON.parse(events.at(-2)!.slice('data: '.length)) as { error: { metadata: { attempts: unknown[] } } };
    expect(last).toMatchObject({
      model: 'primary/m1',
      provider: 'primary',
      error: { code: 503, metadata: { provider_name: 'primary' } },
      choices: [{ index: 0, finish_reason: 'error' }],
    });
    expect(last.error.metadata.attempts).toHaveLength(3);
    expect(setup.usage.at(-1)).toMatchObject({ status: 200, finish_reason: 'error', provider: 'primary' });

    setup.primary.script(fail(503), fail(503), fail(503));
    const stream = await setup.client.chat.completions.create({ model: 'primary/m1', messages: hi, stream: true });
    await expect(
      (async () => {
        for await (const _chunk of stream) void _chunk;
      })(),
    ).rejects.toBeInstanceOf(OpenAI.APIError);
  });

  it('a fast answer opens no earlier than its first chunk and has no comment', async () => {
    setup = await startResilienceGateway({ keepAliveMs: 5_000 });
    const { events } = await rawStream({ model: 'primary/m1' });
    expect(events.every((event) => event.startsWith('data: '))).toBe(true);
  });
});
