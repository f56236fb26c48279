import { describe, expect, it } from 'vitest';
import { newChatMessage } from '../../../shared/bridge/chat-message.js';
import type { ChatMessage } from '../../../shared/bridge/types.js';
import { conversationTotals, estimateTokens } from './conversation-cost.js';

const reply = (prompt: number, completion: number, cost: number | null): ChatMessage =>
  newChatMessage({
    id: `r${prompt}`,
    conversationId: 'c',
    role: 'assistant',
    status: 'complete',
    createdAt: 0,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    cost,
  });

describe('conversationTotals', () => {
  it('adds up every reply’s tokens and cost; the last reply is what the history weighs', () => {
    const question = newChatMessage({ id: 'q', conversationId: 'c', role: 'user', status: 'complete', createdAt: 0 });
    expect(conversationTotals([question, reply(20, 10, 0.25), question, reply(50, 5, 0.5)])).toEqual({
      tokens: 85,
      cost: 0.75,
      unpriced: false,
      lastRequestTokens: 55,
    });
  });

  it('is unpriced when any reply had no price, and empty before any reply', () => {
    expect(conversationTotals([reply(20, 10, 0.25), reply(40, 10, null)])).toMatchObject({
      unpriced: true,
      cost: 0.25,
    });
    expect(conversationTotals([])).toEqual({ tokens: 0, cost: 0, unpriced: false, lastRequestTokens: null });
  });

  it('estimates typed text at four characters a token, rounding up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcde')).toBe(2);
  });
});
