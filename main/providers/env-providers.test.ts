import { describe, expect, it } from 'vitest';
import { EnvironmentProviders, readEnvironmentProviders } from './env-providers.js';

const at = new Date('2026-02-03T04:05:06.000Z');

describe('readEnvironmentProviders', () => {
  it('registers each provider whose key is set, with the default base URLs and kinds', () => {
    const { providers, warnings } = readEnvironmentProviders(
      {
        OPENAI_API_KEY: 'sk-openai',
        ANTHROPIC_API_KEY: 'sk-ant',
        GEMINI_API_KEY: 'gem',
        OPENROUTER_API_KEY: 'sk-or',
      },
      at,
    );
    expect(warnings).toEqual([]);
    expect(providers).toEqual([
      {
        info: {
          id: 'openai',
          kind: 'openai',
          base_url: 'https://api.openai.com/v1',
          has_api_key: true,
          created_at: at.toISOString(),
          source: 'environment',
        },
        apiKey: 'sk-openai',
      },
      expect.objectContaining({
        info: expect.objectContaining({ id: 'anthropic', kind: 'anthropic', base_url: 'https://api.anthropic.com' }),
        apiKey: 'sk-ant',
      }),
      expect.objectContaining({
        info: expect.objectContaining({
          id: 'google',
          kind: 'google',
          base_url: 'https://generativelanguage.googleapis.com',
        }),
        apiKey: 'gem',
      }),
      expect.objectContaining({
        info: expect.objectContaining({ id: 'openrouter', kind: 'openai', base_url: 'https://openrouter.ai/api/v1' }),
        apiKey: 'sk-or',
      }),
    ]);
  });

  it('ignores empty keys and applies base-URL overrides, GEMINI_BASE_URL before GOOGLE_GEMINI_BASE_URL', () => {
    const { providers } = readEnvironmentProviders({
      OPENAI_API_KEY: '  ',
      ANTHROPIC_API_KEY: ' sk-ant ',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999/',
      GEMINI_API_KEY: 'gem',
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:8888/google',
      OPENROUTER_API_KEY: 'sk-or',
      OPENROUTER_BASE_URL: 'http://127.0.0.1:7777/api/v1/',
    });
    expect(providers.map(({ info, apiKey }) => [info.id, info.base_url, apiKey])).toEqual([
      ['anthropic', 'http://127.0.0.1:9999', 'sk-ant'],
      ['google', 'http://127.0.0.1:8888/google', 'gem'],
      ['openrouter', 'http://127.0.0.1:7777/api/v1', 'sk-or'],
    ]);
    const both = readEnvironmentProviders({
      GEMINI_API_KEY: 'gem',
      GEMINI_BASE_URL: 'http://first.test',
      GOOGLE_GEMINI_BASE_URL: 'http://second.test',
    });
    expect(both.providers[0]!.info.base_url).toBe('http://first.test');
  });

  it('skips a provider whose base URL is unusable, with a warning that never quotes the key', () => {
    const { providers, warnings } = readEnvironmentProviders({
      OPENAI_API_KEY: 'sk-secret-value',
      OPENAI_BASE_URL: 'http://user:pw@proxy.test/v1',
      OPENROUTER_API_KEY: 'sk-or',
      OPENROUTER_BASE_URL: 'not a url',
    });
    expect(providers).toEqual([]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('OPENAI_BASE_URL');
    expect(warnings.join()).not.toContain('sk-secret-value');
  });
});

describe('EnvironmentProviders', () => {
  it('hands out the keys it read, and only those', async () => {
    const source = new EnvironmentProviders({ OPENROUTER_API_KEY: 'sk-or' });
    expect(source.listProviders().map((info) => info.id)).toEqual(['openrouter']);
    expect(await source.getApiKey('openrouter')).toBe('sk-or');
    expect(await source.getApiKey('openai')).toBeNull();
  });
});
