// A slow upstream: the gateway opens the stream and keeps it alive with Anthropic's `ping` events, which the SDK
// skips, on the translated path (before message_start) as on the native one.

import { describe, expect, it } from 'vitest';
import * as anthropic from '../../support/fake-anthropic.js';
import { answer } from '../../support/fake-openai.js';
import { useHarness } from '../../support/use-harness.js';
import { anthropicModel, callerSecret, openaiModel, startAnthropicHarness } from './harness.js';

const harness = useHarness(() => startAnthropicHarness({ keepAliveMs: 20 }));
const question = [{ role: 'user' as const, content: 'hi' }];

function askStream(root: string, model: string): Promise<Response> {
  return fetch(`${root}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 10, messages: question, stream: true }),
  });
}

describe('keep-alive', () => {
  it('pings before message_start while a translated upstream is silent; the SDK reads the message through', async () => {
    const setup = harness();
    setup.openai.script(answer('late answer', { headersAfterMs: 200 }), answer('late answer', { headersAfterMs: 200 }));
    const text = await (await askStream(setup.root, openaiModel)).text();
    expect(text.startsWith('event: ping\ndata: {"type":"ping"}\n\n')).toBe(true);
    expect(text).toContain('event: message_start');
    const message = await setup.client.messages
      .stream({ model: openaiModel, max_tokens: 10, messages: question })
      .finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'late answer' }]);
  });

  it('pings while a native upstream is silent', async () => {
    const setup = harness();
    const slow: anthropic.AnthropicAnswer = { stream: 'anthropic-text.sse.txt' };
    const step = anthropic.answer(slow);
    setup.anthropic.script(async (request) => ({ ...(await step(request)), headersAfterMs: 200 }));
    const text = await (await askStream(setup.root, anthropicModel)).text();
    expect(text.startsWith('event: ping\ndata: {"type":"ping"}\n\n')).toBe(true);
    expect(text).toContain('event: message_stop');
  });
});
