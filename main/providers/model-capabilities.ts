// What we know about Anthropic and Gemini models without asking: whether they take images and whether they can
// think (Anthropic's extended thinking, Gemini's thinkingConfig). Patterns are tried in order; a model no entry
// knows is assumed to do both, since every current Claude and Gemini model does, and a wrong "no" would block a
// caller while a wrong "yes" only lets the upstream answer. OpenAI-compatible upstreams decide for themselves.

import type { ModelInfo, ProviderKind } from '../../shared/api/index.js';

export interface ModelCapabilities {
  images: boolean;
  thinking: boolean;
}

const knownModels: Record<Exclude<ProviderKind, 'openai'>, readonly [pattern: RegExp, ModelCapabilities][]> = {
  anthropic: [
    [/^claude-(2|instant)/, { images: false, thinking: false }],
    [/^claude-3-7-/, { images: true, thinking: true }],
    [/^claude-3-/, { images: true, thinking: false }], // claude-3-opus/sonnet/haiku, claude-3-5-sonnet/haiku
    [/^claude-(opus|sonnet|haiku)-4/, { images: true, thinking: true }],
    [/^claude-4/, { images: true, thinking: true }],
  ],
  google: [
    [/^gemini-(1\.0-)?pro(-\d+)?$/, { images: false, thinking: false }], // Gemini 1.0 Pro: text only
    [/^gemini-1\./, { images: true, thinking: false }],
    [/^gemini-2\.0-flash-thinking/, { images: true, thinking: true }],
    [/^gemini-2\.0-/, { images: true, thinking: false }],
    [/^gemma-3-1b/, { images: false, thinking: false }],
    [/^gemma-/, { images: true, thinking: false }],
    [/^gemini-/, { images: true, thinking: true }], // 2.5, 3 and later
  ],
};

const unknownModel: ModelCapabilities = { images: true, thinking: true };

/** The capabilities of a model of an anthropic- or google-kind upstream (Gemini names may start with `models/`). */
export function modelCapabilities(kind: keyof typeof knownModels, model: string): ModelCapabilities {
  const name = kind === 'google' && model.startsWith('models/') ? model.slice('models/'.length) : model;
  return knownModels[kind].find(([pattern]) => pattern.test(name))?.[1] ?? unknownModel;
}

/** The modalities a model list reports for a model with these capabilities. */
export function architectureOf(capabilities: ModelCapabilities): NonNullable<ModelInfo['architecture']> {
  return { input_modalities: capabilities.images ? ['text', 'image'] : ['text'], output_modalities: ['text'] };
}
