import { describe, expect, it } from 'vitest';
import { isOpenRouterLike } from './url.js';

describe('isOpenRouterLike', () => {
  it('recognises openrouter.ai only', () => {
    expect(isOpenRouterLike('https://openrouter.ai/api/v1')).toBe(true);
    expect(isOpenRouterLike('https://api.openai.com/v1')).toBe(false);
    expect(isOpenRouterLike('https://notopenrouter.ai/v1')).toBe(false);
  });
});
