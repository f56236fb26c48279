// The headers a generation watcher adds upstream (a tracer's `traceparent`) reach every provider kind, on every
// path to it: translated chat, the native Anthropic and Gemini relays, embeddings and legacy completions. They
// never replace a provider's own headers (its key).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationWatcher } from '../../main/gateway/index.js';
import * as anthropic from '../support/fake-anthropic.js';
import * as gemini from '../support/fake-gemini.js';
import { anthropicModel, geminiModel, openaiModel, startThreeKinds, type ThreeKinds } from '../support/three-kinds.js';

const secret = 'sk-sy-v1-extra-headers';
const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

// Also tries to replace the providers' keys: it must not manage to.
const tracer: GenerationWatcher = {
  started: () => ({
    attempt: () => ({
      upstreamHeaders: { traceparent, 'x-api-key': 'not-the-key', 'x-goog-api-key': 'not-the-key' },
      answered: () => {},
      failed: () => {},
    }),
  }),
};

let kinds: ThreeKinds;

beforeAll(async () => {
  kinds = await startThreeKinds({ callers: { caller: secret }, watchers: [tracer] });
});

afterAll(async () => {
  await kinds?.close();
});

const messages = [{ role: 'user', content: 'hi' }];
const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];

const paths = [
  { path: '/v1/chat/completions', body: { model: openaiModel, messages } },
  { path: '/v1/chat/completions', body: { model: anthropicModel, messages } },
  { path: '/v1/chat/completions', body: { model: geminiModel, messages, stream: true } },
  { path: '/v1/messages', body: { model: anthropicModel, max_tokens: 100, messages } },
  { path: `/v1beta/models/${geminiModel}:generateContent`, body: { contents } },
  { path: '/v1/embeddings', body: { model: openaiModel, input: 'words' } },
  { path: '/v1/completions', body: { model: openaiModel, prompt: 'Say' } },
];

describe("a watcher's upstream headers", () => {
  it('reach every provider kind on every path, without replacing their keys', async () => {
    const origin = new URL(kinds.served.baseURL).origin;
    for (const { path, body } of paths) {
      const response = await fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, `${path}: ${await response.text()}`).toBe(200);
    }
    const received = [
      ...kinds.openai.requests.filter((request) => request.method === 'POST'),
      ...kinds.anthropic.messageRequests(),
      ...kinds.gemini.generateRequests(),
    ];
    expect(received).toHaveLength(paths.length);
    for (const request of received) expect(request.headers.traceparent, request.url).toBe(traceparent);
    for (const request of kinds.anthropic.messageRequests()) {
      expect(request.headers['x-api-key']).toBe(anthropic.anthropicKey);
    }
    for (const request of kinds.gemini.generateRequests()) {
      expect(request.headers['x-goog-api-key']).toBe(gemini.geminiKey);
    }
  });
});
