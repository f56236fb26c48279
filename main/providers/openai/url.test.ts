import { describe, expect, it } from 'vitest';
import { displayUrl, joinUrl } from '../http/url.js';
import { isOpenRouterLike } from './url.js';

describe('joinUrl', () => {
  it.each([
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1/', 'https://api.openai.com/v1/chat/completions'],
    ['http://127.0.0.1:11434/v1//', 'http://127.0.0.1:11434/v1/chat/completions'],
    ['http://localhost:8000', 'http://localhost:8000/chat/completions'],
    ['https://x.test/openai/v1?api-version=2', 'https://x.test/openai/v1/chat/completions?api-version=2'],
  ])('%s', (base, expected) => {
    expect(joinUrl(base, 'chat/completions')).toBe(expected);
    expect(joinUrl(base, '/chat/completions')).toBe(expected);
  });

  it('answers the same from its cache, also once the cache has been dropped for holding too many URLs', () => {
    const base = 'http://127.0.0.1:8000/v1/';
    expect(joinUrl(base, 'models')).toBe('http://127.0.0.1:8000/v1/models');
    for (let index = 0; index < 2500; index++) {
      expect(joinUrl(base, `models/m${index}`)).toBe(`http://127.0.0.1:8000/v1/models/m${index}`);
    }
    expect(joinUrl(base, 'models')).toBe('http://127.0.0.1:8000/v1/models');
    expect(joinUrl('http://127.0.0.1:8000/v2', 'models')).toBe('http://127.0.0.1:8000/v2/models');
    expect(() => joinUrl('not a url', 'models')).toThrow(TypeError);
  });
});

describe('displayUrl', () => {
  it('drops credentials and the query', () => {
    expect(displayUrl('https://user:secret@host.test/v1/?key=secret')).toBe('https://host.test/v1');
    expect(displayUrl('not a url')).toBe('(invalid URL)');
  });
});

describe('isOpenRouterLike', () => {
  it('recognises openrouter.ai only', () => {
    expect(isOpenRouterLike('https://openrouter.ai/api/v1')).toBe(true);
    expect(isOpenRouterLike('https://api.openai.com/v1')).toBe(false);
    expect(isOpenRouterLike('https://notopenrouter.ai/v1')).toBe(false);
  });
});
