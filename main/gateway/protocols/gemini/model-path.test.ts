import { describe, expect, it } from 'vitest';
import { singleTarget, type ModelInfo } from '../../../../shared/api/index.js';
import { geminiModelEntries, geminiModelPage } from './model-list.js';
import { modelOfPath, parseModelCall } from './model-path.js';

describe('parseModelCall', () => {
  it.each([
    ['gemini-2.5-pro:generateContent', 'gemini-2.5-pro', 'generateContent'],
    ['google/gemini-2.5-pro:streamGenerateContent', 'google/gemini-2.5-pro', 'streamGenerateContent'],
    ['google%2Fgemini-2.5-pro:countTokens', 'google/gemini-2.5-pro', 'countTokens'],
    ['models/google/gemini-2.5-pro:generateContent', 'google/gemini-2.5-pro', 'generateContent'],
    ['ollama/llama3:8b:generateContent', 'ollama/llama3:8b', 'generateContent'],
    ['ollama/llama3:8b', 'ollama/llama3:8b', null],
    ['gemini-2.5-pro', 'gemini-2.5-pro', null],
  ])('%s → %s %s', (rest, model, method) => {
    expect(parseModelCall(rest)).toEqual({ model, method });
  });

  it('keeps a path whose percent-encoding is broken as it is', () => {
    expect(modelOfPath('models/a%zz')).toBe('a%zz');
  });
});

describe('the model list', () => {
  const models: ModelInfo[] = [
    { id: 'google/gemini-2.5-pro', name: 'Gemini 2.5 Pro', context_length: 1_048_576 },
    { id: 'oai/gpt-4o', name: 'gpt-4o' },
  ];

  it('lists aliases (whose target is listed) first, in Google’s shape', () => {
    const aliases = [
      {
        name: 'gemini-2.5-pro',
        target: 'google/gemini-2.5-pro',
        created_at: '',
        ...singleTarget('google/gemini-2.5-pro'),
      },
      { name: 'gone', target: 'nowhere/x', created_at: '', ...singleTarget('nowhere/x') },
    ];
    expect(geminiModelEntries(models, aliases)).toEqual([
      {
        name: 'models/gemini-2.5-pro',
        baseModelId: 'gemini-2.5-pro',
        displayName: 'gemini-2.5-pro',
        description: 'An alias of google/gemini-2.5-pro.',
        inputTokenLimit: 1_048_576,
        supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
      },
      {
        name: 'models/google/gemini-2.5-pro',
        baseModelId: 'google/gemini-2.5-pro',
        displayName: 'Gemini 2.5 Pro',
        inputTokenLimit: 1_048_576,
        supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
      },
      {
        name: 'models/oai/gpt-4o',
        baseModelId: 'oai/gpt-4o',
        displayName: 'gpt-4o',
        supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
      },
    ]);
  });

  it('pages by pageSize and pageToken', () => {
    const entries = geminiModelEntries(models, []);
    const first = geminiModelPage(entries, { pageSize: '1' });
    expect(first.models.map((model) => model.name)).toEqual(['models/google/gemini-2.5-pro']);
    const second = geminiModelPage(entries, { pageSize: '1', pageToken: first.nextPageToken });
    expect(second).toEqual({ models: [expect.objectContaining({ name: 'models/oai/gpt-4o' })] });
    expect(() => geminiModelPage(entries, { pageSize: 'many' })).toThrow(/pageSize must be a whole number/);
  });
});
