// The response cache's key: the fields that change an answer are in it, delivery and bookkeeping fields are not,
// the scope separates keys, and field order does not matter. And what the caller's headers ask of the cache.

import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../shared/api/index.js';
import { cacheDirectivesOf, cacheKeyOf } from './cache-plan.js';

const request: ChatRequest = {
  model: 'up/echo-1',
  stream: false,
  temperature: 0,
  messages: [{ role: 'user', content: 'hi' }],
};
const keyOf = (changes: Partial<ChatRequest>, scope = 'key:k1') => cacheKeyOf({ ...request, ...changes }, scope);

describe('cacheKeyOf', () => {
  it('is a SHA-256 in hex, the same for the same request whatever the order of its fields', () => {
    const reordered = { messages: request.messages, temperature: 0, stream: false, model: 'up/echo-1' } as ChatRequest;
    expect(keyOf({})).toMatch(/^[0-9a-f]{64}$/);
    expect(cacheKeyOf(reordered, 'key:k1')).toBe(keyOf({}));
  });

  it('leaves out how the answer is delivered and what is noted about the request', () => {
    const same = keyOf({});
    expect(keyOf({ stream: true, stream_options: { include_usage: true } })).toBe(same);
    expect(keyOf({ user: 'someone', metadata: { ticket: '1' }, store: true })).toBe(same);
  });

  it('changes with the model, the messages, the tools and the parameters', () => {
    const same = keyOf({});
    expect(keyOf({ model: 'fast' })).not.toBe(same);
    expect(keyOf({ messages: [{ role: 'user', content: 'hello' }] })).not.toBe(same);
    expect(keyOf({ max_tokens: 5 })).not.toBe(same);
    expect(keyOf({ seed: 1 })).not.toBe(same);
    expect(
      keyOf({ tools: [{ type: 'function', function: { name: 'now', parameters: { type: 'object' } } }] }),
    ).not.toBe(same);
  });

  it('differs between scopes', () => {
    expect(keyOf({}, 'key:k2')).not.toBe(keyOf({}, 'key:k1'));
    expect(keyOf({}, '*')).not.toBe(keyOf({}, 'key:k1'));
  });
});

describe('cacheDirectivesOf', () => {
  it('reads no-cache, no-store and the force opt-in, in any case and order', () => {
    expect(cacheDirectivesOf('No-Store, no-cache', 'FORCE')).toEqual({ noLookup: true, noStore: true, force: true });
    expect(cacheDirectivesOf('max-age=0', null)).toEqual({ noLookup: false, noStore: false, force: false });
    expect(cacheDirectivesOf(null, 'hit')).toEqual({ noLookup: false, noStore: false, force: false });
  });
});
