// A failed reply says what went wrong and what to do, through the real gateway: a provider that refuses its key,
// one that cannot be reached, a rate limit, and an error inside the stream.

import { describe, expect, it } from 'vitest';
import { chunk, fail, rejectKey, sse } from '../support/fake-openai.js';
import { eventStreamHeaders } from '../support/recording-server.js';
import { replyInNewChat, useChatTestApp } from './chat-test-app.js';

const env = useChatTestApp();

const replyTo = (text: string, model?: string) => replyInNewChat(env, text, model);

describe('a failed reply', () => {
  it('sends a refused key to the key of that provider on the Providers screen, and never shows the key', async () => {
    env.upstream.script(rejectKey());
    const reply = await replyTo('Hello');
    expect(reply.status).toBe('error');
    expect(reply.error).toBe(
      'Provider "fake" rejected its API key (upstream 401). The provider refused the key: check the key of provider ' +
        '"fake" on the Providers screen.',
    );
    expect(reply.error).not.toContain('sk-upstream-test');
  });

  it('asks to check the base URL and the server of a provider that cannot be reached', async () => {
    await env.app.providers.add({ id: 'gone', kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-x' });
    const reply = await replyTo('Hello', 'gone/some-model');
    expect(reply.status).toBe('error');
    expect(reply.error).toMatch(/^Could not reach provider "gone" at .*: ECONNREFUSED\. /);
    expect(reply.error).toMatch(
      /Check the base URL of provider "gone" on the Providers screen, and that its server is running\.$/,
    );
  });

  it('asks to wait out a rate limit', async () => {
    // The gateway tries a rate-limited model three times.
    env.upstream.script(fail(429), fail(429), fail(429));
    const reply = await replyTo('Hello');
    expect(reply.status).toBe('error');
    expect(reply.error).toMatch(/^Provider "fake" is rate limiting requests \(upstream 429\)/);
    expect(reply.error).toContain('Wait a minute and try again (Regenerate)');
  });

  it('explains an error that arrives inside the stream, after part of the answer', async () => {
    env.upstream.script(() => ({
      headers: eventStreamHeaders,
      chunks: [
        sse(chunk('scripted-1', { role: 'assistant', content: 'Half an ans' })),
        sse({ error: { code: 429, message: 'Rate limit exceeded upstream' } }),
      ],
    }));
    const reply = await replyTo('Hello');
    expect(reply.status).toBe('error');
    expect(reply.content).toBe('Half an ans');
    expect(reply.error).toMatch(/^Provider "fake" .*Rate limit exceeded upstream\. \w/);
    expect(reply.error).toMatch(/try again \(Regenerate\)/);
  });
});
