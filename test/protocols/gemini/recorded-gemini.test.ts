// Every recorded Gemini exchange in ../shared/recordings (vercel/ai's google fixtures, pydantic-ai's and simonw's
// llm-gemini cassettes) replayed through the Gemini API's native path: the recording is the google-kind upstream,
// the caller asks the gateway's /v1beta as Google's clients do, and must get exactly what was recorded (each event
// or the whole answer, payload for payload, with only `modelVersion` naming the model as the gateway does), an
// error as Google's error with the recorded status; and the official @google/genai reads every stream through.

import { GoogleGenAI } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { createGoogleAdapter } from '../../../main/providers/google/index.js';
import type { RecordedCase } from '../../recordings/recorded-cases.js';
import { geminiKey } from '../../support/fake-gemini.js';
import { byId, expectRecordedError, useRecordedGateway } from '../recorded-native.js';

const { callerSecret, cases, harness, modelOf, replay } = useRecordedGateway(
  'gemini',
  { id: 'gemini', kind: 'google', apiKey: geminiKey },
  createGoogleAdapter(),
  ask,
);

/** The recording's payloads: each `data:` event of a stream, or the one JSON body. */
function recordedPayloads(recorded: RecordedCase): Record<string, unknown>[] {
  if (!recorded.streamed) return [JSON.parse(recorded.body) as Record<string, unknown>];
  return recorded.body
    .split(/\r?\n\r?\n/)
    .map((event) => event.trim())
    .filter((event) => event.startsWith('data:'))
    .map((event) => JSON.parse(event.slice('data:'.length)) as Record<string, unknown>);
}

function relabelled(payload: Record<string, unknown>, model: string): Record<string, unknown> {
  return 'modelVersion' in payload ? { ...payload, modelVersion: model } : payload;
}

/** A request body the recorded upstream takes (it answers whatever was asked, as it was recorded). */
const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Replay the recording.' }] }] });

async function ask(root: string, model: string, recorded: RecordedCase): Promise<Response> {
  const method = recorded.streamed ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return fetch(`${root}/v1beta/models/${model}:${method}`, {
    method: 'POST',
    headers: { 'x-goog-api-key': callerSecret, 'content-type': 'application/json' },
    body,
  });
}

describe('recorded Gemini traffic through the native path', () => {
  it('has the recordings to replay', () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(byId(cases.filter((recorded) => recorded.status === 200)))(
    '%s reaches the caller as recorded',
    async (_id, recorded) => {
      const text = await (await replay(recorded)).text();
      const model = modelOf(recorded);
      const received = recorded.streamed
        ? text
            .split('\r\n\r\n')
            .filter((event) => event.startsWith('data:'))
            .map((event) => JSON.parse(event.slice('data:'.length)) as unknown)
        : [JSON.parse(text) as unknown];
      expect(received).toEqual(recordedPayloads(recorded).map((payload) => relabelled(payload, model)));
      const row = harness().usage.at(-1)!;
      expect(row).toMatchObject({ model, status: 200, streamed: recorded.streamed });
      const last = recordedPayloads(recorded).findLast((payload) => payload.usageMetadata) as
        { usageMetadata: { promptTokenCount?: number } } | undefined;
      if (last) expect(row.prompt_tokens).toBe(last.usageMetadata.promptTokenCount ?? 0);
    },
  );

  it.each(byId(cases.filter((recorded) => recorded.streamed)))(
    '%s streams through @google/genai',
    async (_id, recorded) => {
      const { root } = harness();
      const ai = new GoogleGenAI({ apiKey: callerSecret, httpOptions: { baseUrl: root } });
      const stream = await ai.models.generateContentStream({ model: modelOf(recorded), contents: 'Replay.' });
      let responses = 0;
      for await (const response of stream) {
        expect(response.modelVersion ?? modelOf(recorded)).toBe(modelOf(recorded));
        responses += 1;
      }
      expect(responses).toBe(recordedPayloads(recorded).length);
    },
  );

  it.each(byId(cases.filter((recorded) => recorded.status !== 200)))(
    '%s reaches the caller as Google’s error with the recorded status',
    async (_id, recorded) => {
      const answer = await expectRecordedError<{ error: object }>(await replay(recorded), recorded);
      expect(answer.error).toMatchObject({ code: recorded.status, status: 'RESOURCE_EXHAUSTED' });
    },
  );
});
