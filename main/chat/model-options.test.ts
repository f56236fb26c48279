import { describe, expect, it } from 'vitest';
import { toModelOptions } from './model-options.js';

describe('the model picker’s list', () => {
  it('leaves out models that only embed, and sorts the rest', () => {
    const options = toModelOptions([
      {
        id: 'oai/text-embedding-3-small',
        name: 'text-embedding-3-small',
        architecture: { input_modalities: ['text'], output_modalities: ['embeddings'] },
      },
      { id: 'oai/gpt-4o', name: 'gpt-4o' },
      {
        id: 'gem/gemini-2.5-flash',
        name: 'Gemini 2.5 Flash',
        architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
      },
    ]);
    expect(options.map((option) => option.id)).toEqual(['gem/gemini-2.5-flash', 'oai/gpt-4o']);
    expect(options[0]!.acceptsImages).toBe(true);
  });
});
