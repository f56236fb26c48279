// A chat reply refused for lack of credits: the gateway's own refusal becomes the app's message (add credits on
// the Activity screen, where the UI offers the button), while the other refusals keep their words: the chat key's
// spend limit (also a 402) and a provider's own 402.

import { describe, expect, it } from 'vitest';
import { noCreditsError } from '../../shared/bridge/chat-message.js';
import { chatKeyName } from '../../main/chat/index.js';
import { fail } from '../support/fake-openai.js';
import { replyInNewChat, useChatTestApp } from './chat-test-app.js';

const env = useChatTestApp();

const replyTo = (text: string, model?: string) => replyInNewChat(env, text, model);

describe('a reply refused for lack of credits', () => {
  it('says to add credits in the app when the gateway has none left, and reaches no provider', async () => {
    await env.app.accounts.setCredits(0);
    try {
      const before = env.upstream.chatRequests().length;
      const reply = await replyTo('Hello');
      expect(reply).toMatchObject({ role: 'assistant', status: 'error', error: noCreditsError });
      expect(reply.error).not.toContain('switchyard');
      expect(env.upstream.chatRequests()).toHaveLength(before);
    } finally {
      await env.app.accounts.unsetCredits();
    }
  });

  it('keeps the words of the chat key’s spend limit, also a 402', async () => {
    await replyTo('Hello'); // the chat's key exists from its first request on
    const key = env.app.keys.list().find((candidate) => candidate.name === chatKeyName)!;
    await env.app.keys.update(key.id, { limit: 0 });
    try {
      const reply = await replyTo('Hello');
      expect(reply.status).toBe('error');
      expect(reply.error).toContain('reached its spend limit');
    } finally {
      await env.app.keys.update(key.id, { limit: null });
    }
  });

  it('keeps a provider’s own 402 as the provider said it', async () => {
    env.upstream.script(fail(402, { body: { error: { message: 'Your provider account has run out of credits.' } } }));
    const reply = await replyTo('Hello');
    expect(reply.status).toBe('error');
    expect(reply.error).not.toBe(noCreditsError);
    expect(reply.error).toContain('run out of credits');
  });
});
