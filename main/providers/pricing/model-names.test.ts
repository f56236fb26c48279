import { describe, expect, it } from 'vitest';
import { priceLookupNames } from './model-names.js';

const names = (model: string, upstreamModel: string | null = null) =>
  priceLookupNames({ model, provider: model.split('/')[0]!, upstreamModel });

describe('priceLookupNames', () => {
  it('goes from the requested id to the bare upstream model name', () => {
    expect(names('openai/gpt-4o')).toEqual(['openai/gpt-4o', 'gpt-4o']);
    expect(names('myazure/gpt-4o')).toEqual(['myazure/gpt-4o', 'gpt-4o']);
  });

  it('takes the last path segment of OpenRouter-style and Gemini-style names', () => {
    expect(names('openrouter/openai/gpt-4o')).toEqual(['openrouter/openai/gpt-4o', 'openai/gpt-4o', 'gpt-4o']);
    expect(names('g/models/gemini-2.5-pro')).toContain('gemini-2.5-pro');
  });

  it('strips snapshot suffixes', () => {
    expect(names('openai/gpt-4o-2024-08-06').at(-1)).toBe('gpt-4o');
    expect(names('openai/gpt-4o-mini-2024-07-18').at(-1)).toBe('gpt-4o-mini');
    expect(names('anthropic/claude-sonnet-4-20250514').at(-1)).toBe('claude-sonnet-4');
    expect(names('vertex/claude-opus-4@20250514').at(-1)).toBe('claude-opus-4');
    expect(names('anthropic/claude-3-5-haiku-latest').at(-1)).toBe('claude-3-5-haiku');
    expect(names('google/gemini-2.5-flash-preview-05-20').at(-1)).toBe('gemini-2.5-flash');
    expect(names('openai/o4-mini-2025-04-16').at(-1)).toBe('o4-mini');
  });

  it('uses the upstream name when the serving model is known, and lowercases', () => {
    expect(names('up/Alias', 'GPT-4o')).toEqual(['up/alias', 'gpt-4o']);
  });
});
