// What a chat reply cost, through the real app and gateway: the upstream's figure when it reports one, the price
// book's when it knows the model, and unknown (null, "unpriced" in the UI) when neither does — never a $0 that
// looks free.

import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../shared/bridge/types.js';
import { waitFor } from '../support/wait-for.js';
import { useChatTestApp } from './chat-test-app.js';

const env = useChatTestApp();

async function reply(text: string) {
  const conversation = await env.app.chat.createConversation({ model: 'fake/scripted-1' });
  await env.app.chat.send(conversation.id, text);
  const usage = await waitFor(
    () =>
      env.events.find(
        (event): event is Extract<ChatEvent, { type: 'usage' }> =>
          event.type === 'usage' && event.conversationId === conversation.id,
      ),
    { what: 'the reply’s usage' },
  );
  await waitFor(async () => !(await env.app.chat.getConversation(conversation.id)).running, {
    what: 'the end of the turn',
  });
  const stored = (await env.app.chat.getConversation(conversation.id)).messages.find((m) => m.role === 'assistant');
  return { event: usage, stored };
}

describe('the cost of a chat reply', () => {
  it('is the upstream’s figure when it reports one', async () => {
    const { event, stored } = await reply('Hi');
    expect(event.cost).toBe(0.0002);
    expect(stored?.cost).toBe(0.0002);
  });

  it('is unknown (null) for a model without a price, though the gateway reported 0', async () => {
    const { event, stored } = await reply('an unpriced question');
    expect(event.usage.cost).toBe(0);
    expect(event.cost).toBeNull();
    expect(stored).toMatchObject({ cost: null, usage: { prompt_tokens: 20, completion_tokens: 10 } });
  });

  it('is 0 for a model whose price is 0: free, not unpriced', async () => {
    await env.app.accounts.prices.set('fake/scripted-1', { input: 0, output: 0 });
    try {
      const { stored } = await reply('another unpriced question');
      expect(stored?.cost).toBe(0);
    } finally {
      await env.app.accounts.prices.unset('fake/scripted-1');
    }
  });
});
