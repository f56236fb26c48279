import { describe, expect, it } from 'vitest';
import { convertOpenAIModels } from './convert-models.js';
import { upstreamModelListSchema } from './upstream-schemas.js';

describe('convertOpenAIModels', () => {
  it('keeps modalities an upstream declares, and marks embedding models by their name when it declares none', () => {
    const list = upstreamModelListSchema.parse({
      data: [
        { id: 'gpt-4o', object: 'model', created: 1, owned_by: 'openai' },
        { id: 'text-embedding-3-small', object: 'model', created: 1, owned_by: 'openai' },
        { id: 'nomic-embed-text:latest', object: 'model' },
        { id: 'vendor/m', architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] } },
      ],
    });
    expect(convertOpenAIModels(list).map((model) => [model.id, model.architecture?.output_modalities])).toEqual([
      ['gpt-4o', undefined],
      ['text-embedding-3-small', ['embeddings']],
      ['nomic-embed-text:latest', ['embeddings']],
      ['vendor/m', ['text']],
    ]);
  });
});
