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

  it('says which known models call tools and reason, and how much context each has', () => {
    const [claude, o3, echo] = toModelOptions([
      { id: 'ant/claude-sonnet-4-5', name: 'Claude Sonnet 4.5', context_length: 200_000 },
      { id: 'up/echo-1', name: 'echo-1' },
      { id: 'oai/o3-mini', name: 'o3-mini' },
    ]);
    expect(claude).toMatchObject({ callsTools: true, reasons: true, acceptsImages: true, contextLength: 200_000 });
    expect(echo).toMatchObject({ callsTools: false, reasons: false, acceptsImages: false, contextLength: null });
    expect(o3).toMatchObject({ callsTools: true, reasons: true });
  });
});

describe('which models are offered PDFs', () => {
  it('believes a list that declares files, and otherwise knows the families whose APIs read PDFs', () => {
    const options = toModelOptions([
      { id: 'ant/claude-sonnet-4-5', name: 'Claude Sonnet 4.5' },
      {
        id: 'gem/gemini-2.5-flash',
        name: 'Gemini 2.5 Flash',
        architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
      },
      { id: 'oai/gpt-4o-mini', name: 'gpt-4o-mini' },
      { id: 'lm/llava-1.6', name: 'llava' },
      { id: 'lm/qwen3-8b', name: 'qwen3' },
      {
        id: 'or/some-model',
        name: 'Some model',
        architecture: { input_modalities: ['text', 'file'], output_modalities: ['text'] },
      },
      {
        id: 'or/gpt-4o-text',
        name: 'A gpt-4o said to take text only',
        architecture: { input_modalities: ['text'], output_modalities: ['text'] },
      },
    ]);
    const pdfs = Object.fromEntries(options.map((option) => [option.id, option.acceptsPdfs]));
    expect(pdfs).toEqual({
      'ant/claude-sonnet-4-5': true,
      'gem/gemini-2.5-flash': true,
      'oai/gpt-4o-mini': true,
      'lm/llava-1.6': false,
      'lm/qwen3-8b': false,
      'or/some-model': true,
      'or/gpt-4o-text': false,
    });
  });
});
