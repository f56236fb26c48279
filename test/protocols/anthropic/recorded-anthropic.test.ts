// Every recorded Anthropic exchange in ../shared/recordings (vercel/ai's anthropic fixtures, pydantic-ai's and
// simonw's llm-anthropic cassettes) replayed through Anthropic Messages' native path: the recording is the
// anthropic-kind upstream, the caller asks the gateway's /v1/messages as Anthropic's clients do, and must get exactly
// what was recorded — a stream byte for byte as Anthropic frames its events, but for the model in message_start,
// which names the model as the gateway does; a whole message payload for payload — an error as Anthropic's error
// with the recorded status, an error event mid-stream as Anthropic's error event; and the official
// @anthropic-ai/sdk reads every stream through.

import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from '../../../main/providers/anthropic/index.js';
import { decodeSseEvents } from '../../../main/providers/http/upstream-http.js';
import type { RecordedCase } from '../../recordings/recorded-cases.js';
import { anthropicKey } from '../../support/fake-anthropic.js';
import { byId, expectRecordedError, useRecordedGateway } from '../recorded-native.js';

const { callerSecret, cases, harness, modelOf, replay } = useRecordedGateway(
  'anthropic',
  { id: 'claude', kind: 'anthropic', apiKey: anthropicKey },
  createAnthropicAdapter(),
  ask,
);

/** The recorded stream as Anthropic frames it (`event:` then `data:`), message_start naming `model`. */
async function expectedStream(recorded: RecordedCase, model: string): Promise<string> {
  let text = '';
  async function* body() {
    yield recorded.body;
  }
  for await (const event of decodeSseEvents(body(), 'recorded')) {
    let data = event.data;
    if (event.event === 'message_start') {
      const payload = JSON.parse(data) as { message: Record<string, unknown> };
      data = JSON.stringify({ ...payload, message: { ...payload.message, model } });
    }
    text += `event: ${event.event}\ndata: ${data}\n\n`;
  }
  return text;
}

function ask(root: string, model: string, recorded: RecordedCase): Promise<Response> {
  return fetch(`${root}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': callerSecret, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model,
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Replay the recording.' }],
      stream: recorded.streamed,
    }),
  });
}

const succeeded = cases.filter((recorded) => recorded.status === 200 && recorded.id !== 'anth-midstream-overloaded');

describe('recorded Anthropic traffic through the native path', () => {
  it('has the recordings to replay', () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(byId(succeeded))('%s reaches the caller as recorded', async (_id, recorded) => {
    const response = await replay(recorded);
    const model = modelOf(recorded);
    if (recorded.streamed) {
      expect(await response.text()).toBe(await expectedStream(recorded, model));
    } else {
      expect(await response.json()).toEqual({ ...(JSON.parse(recorded.body) as object), model });
    }
    const { usage } = harness();
    expect(usage.at(-1)).toMatchObject({ model, provider: 'claude', status: 200, streamed: recorded.streamed });
    expect(usage.at(-1)!.prompt_tokens).toBeGreaterThan(0);
  });

  it.each(byId(succeeded.filter((recorded) => recorded.streamed)))(
    '%s streams through @anthropic-ai/sdk',
    async (_id, recorded) => {
      const { root } = harness();
      const client = new Anthropic({ baseURL: root, apiKey: callerSecret, maxRetries: 0 });
      const message = await client.messages
        .stream({ model: modelOf(recorded), max_tokens: 1024, messages: [{ role: 'user', content: 'Replay.' }] })
        .finalMessage();
      expect(message.model).toBe(modelOf(recorded));
      expect(message.content.length).toBeGreaterThan(0);
    },
  );

  it('ends a stream the upstream broke with Anthropic’s error event, which the SDK raises', async () => {
    const { root, usage } = harness();
    const recorded = cases.find((candidate) => candidate.id === 'anth-midstream-overloaded')!;
    const text = await (await ask(root, modelOf(recorded), recorded)).text();
    expect(text).toMatch(
      /event: error\ndata: \{"type":"error","error":\{"type":"overloaded_error","message":".*Overloaded"\}\}\n\n$/,
    );
    expect(usage.at(-1)).toMatchObject({ status: 200, finish_reason: 'error' });
    const client = new Anthropic({ baseURL: root, apiKey: callerSecret, maxRetries: 0 });
    const stream = client.messages.stream({
      model: modelOf(recorded),
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
    });
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded/);
  });

  it.each(byId(cases.filter((recorded) => recorded.status !== 200)))(
    '%s reaches the caller as Anthropic’s error with the recorded status',
    async (_id, recorded) => {
      const answer = await expectRecordedError(await replay(recorded), recorded);
      expect(answer).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    },
  );
});
