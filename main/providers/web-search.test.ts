import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../shared/api/index.js';
import { requestedLocationOf, webSearchKindOf } from './web-search.js';

const none: Pick<ChatRequest, 'tools'> = {};
const withFunction: Pick<ChatRequest, 'tools'> = {
  tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
};

describe('webSearchKindOf', () => {
  it.each([
    ['anthropic', 'claude-sonnet-4-5', none, 'anthropic-web-search'],
    ['anthropic', 'claude-3-5-haiku-latest', withFunction, 'anthropic-web-search'],
    ['anthropic', 'claude-3-opus-20240229', none, null],
    ['anthropic', 'claude-2.1', none, null],
    ['google', 'gemini-2.5-flash', none, 'google-search'],
    ['google', 'models/gemini-3-pro-preview', none, 'google-search'],
    ['google', 'gemini-flash-latest', none, 'google-search'],
    ['google', 'gemini-2.5-flash', withFunction, null],
    ['google', 'gemini-1.5-pro', none, null],
    ['google', 'gemma-3-27b-it', none, null],
  ] as const)('%s %s (%j) → %s', (kind, model, request, expected) => {
    expect(webSearchKindOf({ kind, base_url: 'https://example.test' }, model, request)).toBe(expected);
  });

  it('knows OpenRouter by its host; other OpenAI-compatible servers have none', () => {
    const openRouter = { kind: 'openai', base_url: 'https://openrouter.ai/api/v1' } as const;
    expect(webSearchKindOf(openRouter, 'openai/gpt-4o', withFunction)).toBe('openrouter-web-plugin');
    expect(webSearchKindOf({ kind: 'openai', base_url: 'https://api.openai.com/v1' }, 'gpt-4o', none)).toBeNull();
  });
});

describe('requestedLocationOf', () => {
  it('takes the named string fields of OpenAI’s approximate location', () => {
    const options = {
      user_location: { type: 'approximate', approximate: { city: 'Oslo', region: null, country: 'NO' } },
    };
    expect(requestedLocationOf(options)).toEqual({ city: 'Oslo', country: 'NO' });
    expect(requestedLocationOf({ user_location: { type: 'approximate', approximate: { city: 7 } } })).toBeNull();
    expect(requestedLocationOf({})).toBeNull();
    expect(requestedLocationOf(undefined)).toBeNull();
  });
});
