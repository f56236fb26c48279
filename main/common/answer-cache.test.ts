import { describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache.js';

describe('AnswerCache', () => {
  it('keeps an answer per first and second argument, a null second apart from any string', () => {
    const cache = new AnswerCache<string>(10);
    cache.set('a', 'x', 'a+x');
    cache.set('a', null, 'a');
    cache.set('b', 'x', 'b+x');
    expect(cache.get('a', 'x')).toBe('a+x');
    expect(cache.get('a')).toBe('a');
    expect(cache.get('b', 'x')).toBe('b+x');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a', 'y')).toBeUndefined();
  });

  it('drops every answer when it holds `limit` of them, and counts an answer replaced as one', () => {
    const cache = new AnswerCache<number>(3);
    cache.set('a', null, 1);
    cache.set('a', null, 2);
    cache.set('b', null, 3);
    cache.set('c', null, 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([2, 3, 4]);
    cache.set('d', null, 5);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([
      undefined,
      undefined,
      undefined,
      5,
    ]);
  });

  it('forgets everything on clear()', () => {
    const cache = new AnswerCache<boolean>(10);
    cache.set('a', null, false);
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
  });
});
