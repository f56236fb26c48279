// The official openai SDK retries 408/409/429/5xx on its own (2 retries by default) unless the response says
// `x-should-retry: false`. The gateway says so once it has retried or fallen back itself, so that one failing
// request costs the upstream 3 calls and not 9; a failure it did not retry stays retryable for the SDK.

import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { callerSecret } from '../gateway/harness.js';
import { startResilienceGateway, type ResilienceGateway } from '../resilience/harness.js';
import { fail } from '../support/fake-openai.js';

const hi = [{ role: 'user' as const, content: 'hi' }];
let setup: ResilienceGateway;

afterEach(async () => {
  await setup?.close();
});

function retryingClient(maxRetries: number): OpenAI {
  return new OpenAI({ baseURL: setup.baseURL, apiKey: callerSecret, maxRetries });
}

describe('openai SDK retries on top of the gateway', () => {
  it('does not multiply the gateway’s retries: x-should-retry: false after they were spent', async () => {
    setup = await startResilienceGateway();
    setup.primary.script(fail(503), fail(503), fail(503));
    const error = await retryingClient(2)
      .chat.completions.create({ model: 'primary/m1', messages: hi, stream: false })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('x-should-retry')).toBe('false');
    expect(setup.primary.chatRequests()).toHaveLength(3);
  });

  it('retries itself when the gateway did not (its retries turned off), and succeeds', async () => {
    setup = await startResilienceGateway({ retry: { maxRetries: 0 } });
    setup.primary.script(fail(503));
    const completion = await retryingClient(1).chat.completions.create({
      model: 'primary/m1',
      messages: hi,
      stream: false,
    });
    expect(completion.choices[0]!.message.content).toBe('answer from primary');
    expect(setup.primary.chatRequests()).toHaveLength(2);
  });

  it('never retries a 400', async () => {
    setup = await startResilienceGateway();
    setup.primary.script(fail(400));
    const error = await retryingClient(2)
      .chat.completions.create({ model: 'primary/m1', messages: hi, stream: false })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(setup.primary.chatRequests()).toHaveLength(1);
  });

  it('ignores the keep-alive comments of a slow stream', async () => {
    setup = await startResilienceGateway({ keepAliveMs: 30, retry: { baseDelayMs: 200, maxDelayMs: 200 } });
    setup.primary.script(fail(503));
    const stream = await retryingClient(0).chat.completions.create({ model: 'primary/m1', messages: hi, stream: true });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toBe('answer from primary');
  });
});
