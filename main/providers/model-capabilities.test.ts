import { describe, expect, it } from 'vitest';
import { architectureOf, modelCapabilities } from './model-capabilities.js';

describe('modelCapabilities', () => {
  it.each([
    ['anthropic', 'claude-2.1', false, false],
    ['anthropic', 'claude-instant-1.2', false, false],
    ['anthropic', 'claude-3-haiku-20240307', true, false],
    ['anthropic', 'claude-3-5-sonnet-20241022', true, false],
    ['anthropic', 'claude-3-7-sonnet-20250219', true, true],
    ['anthropic', 'claude-sonnet-4-20250514', true, true],
    ['anthropic', 'claude-opus-4-1-20250805', true, true],
    ['anthropic', 'claude-haiku-4-5', true, true],
    ['anthropic', 'some-future-model', true, true],
    ['google', 'gemini-2.5-flash', true, true],
    ['google', 'gemini-2.5-pro', true, true],
    ['google', 'gemini-3-pro-preview', true, true],
    ['google', 'gemini-2.0-flash', true, false],
    ['google', 'gemini-1.5-pro', true, false],
    ['google', 'gemini-1.0-pro', false, false],
    ['google', 'models/gemini-1.0-pro', false, false],
    ['google', 'gemini-pro', false, false],
    ['google', 'gemma-3-1b-it', false, false],
    ['google', 'gemma-3-27b-it', true, false],
    ['google', 'learnlm-2.0-flash-experimental', true, true],
  ] as const)('%s %s: images %s, thinking %s', (kind, model, images, thinking) => {
    expect(modelCapabilities(kind, model)).toEqual({ images, thinking });
  });

  it('reports images as an input modality only for a model that takes them', () => {
    expect(architectureOf({ images: true, thinking: false })).toEqual({
      input_modalities: ['text', 'image'],
      output_modalities: ['text'],
    });
    expect(architectureOf({ images: false, thinking: true })).toEqual({
      input_modalities: ['text'],
      output_modalities: ['text'],
    });
  });
});
