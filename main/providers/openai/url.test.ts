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
