import { describe, expect, it } from 'vitest';
import { ChatError } from './chat-error.js';
import { createHttpChatGateway } from './gateway-client.js';

async function failureOf(baseUrl: string | null): Promise<unknown> {
  const gateway = createHttpChatGateway({
    baseUrl: () => baseUrl,
    apiKey: () => Promise.resolve('sk-chat'),
    renewApiKey: () => Promise.resolve('sk-chat'),
  });
  try {
    for await (const chunk of gateway.stream({ model: 'p/m', messages: [] }, new AbortController().signal)) {
      void chunk;
    }
  } catch (error) {
    return error;
  }
  throw new Error('the stream did not fail');
}

describe('the chat gateway client', () => {
  it('says what to do when the gateway does not answer', async () => {
    const error = await failureOf('http://127.0.0.1:9/api/v1');
    expect(error).toBeInstanceOf(ChatError);
    expect((error as ChatError).message).toBe(
      "Switchyard's gateway at http://127.0.0.1:9/api/v1 did not answer: check on the Gateway screen that it is " +
        'listening, then try again (Regenerate).',
    );
  });

  it('says what to do when the gateway is not running', async () => {
    expect(((await failureOf(null)) as ChatError).message).toMatch(/the Gateway screen says why it could not start/);
  });
});
