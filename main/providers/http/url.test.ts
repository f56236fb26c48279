// Where each kind's requests go: one table of base URLs as users write them and the URL the adapter asks, for the
// plain join (openai) and the two kinds that add their API version (anthropic, google) unless the base has one.

import { describe, expect, it } from 'vitest';
import { anthropicUrl } from '../anthropic/anthropic-url.js';
import { geminiUrl } from '../google/gemini-url.js';
import { displayUrl, joinUrl } from './url.js';

/** The URLs a kind builds from a base for one request; openai's path is joined with and without a leading slash. */
const requestUrls = {
  openai: (base: string) => [joinUrl(base, 'chat/completions'), joinUrl(base, '/chat/completions')],
  anthropic: (base: string) => [anthropicUrl(base, 'messages')],
  google: (base: string) => [geminiUrl(base, 'models')],
};

/** A kind, a base URL as a user writes it, and the URL of its chat (openai, anthropic) or model list (google). */
const requestUrlCases = [
  ['openai', 'https://api.openai.com/v1', 'https://api.openai.com/v1/chat/completions'],
  ['openai', 'https://api.openai.com/v1/', 'https://api.openai.com/v1/chat/completions'],
  ['openai', 'http://127.0.0.1:11434/v1//', 'http://127.0.0.1:11434/v1/chat/completions'],
  ['openai', 'http://localhost:8000', 'http://localhost:8000/chat/completions'],
  ['openai', 'https://x.test/openai/v1?api-version=2', 'https://x.test/openai/v1/chat/completions?api-version=2'],
  ['anthropic', 'https://api.anthropic.com', 'https://api.anthropic.com/v1/messages'],
  ['anthropic', 'https://api.anthropic.com/', 'https://api.anthropic.com/v1/messages'],
  ['anthropic', 'https://api.anthropic.com/v1', 'https://api.anthropic.com/v1/messages'],
  ['anthropic', 'https://api.anthropic.com/v1/', 'https://api.anthropic.com/v1/messages'],
  ['anthropic', 'http://127.0.0.1:8080/proxy/anthropic', 'http://127.0.0.1:8080/proxy/anthropic/v1/messages'],
  ['google', 'https://generativelanguage.googleapis.com', 'https://generativelanguage.googleapis.com/v1beta/models'],
  ['google', 'https://generativelanguage.googleapis.com/', 'https://generativelanguage.googleapis.com/v1beta/models'],
  [
    'google',
    'https://generativelanguage.googleapis.com/v1beta',
    'https://generativelanguage.googleapis.com/v1beta/models',
  ],
  ['google', 'https://generativelanguage.googleapis.com/v1/', 'https://generativelanguage.googleapis.com/v1/models'],
] as const;

describe('request URLs', () => {
  it.each(requestUrlCases)('%s: %s', (kind, base, expected) => {
    for (const url of requestUrls[kind](base)) expect(url).toBe(expected);
  });
});

describe('joinUrl', () => {
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
