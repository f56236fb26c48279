// What we know about Gemini models without asking: whether they take images and whether they accept a
// thinkingConfig. Patterns are tried in order; a model no entry knows is assumed to do both (every current Gemini
// model does, and a wrong "no" would block a caller while a wrong "yes" only lets the upstream answer).

import type { ModelInfo } from '../../../shared/api/index.js';
import type { GeminiModelList } from './gemini-api.js';

export interface GeminiModelCapabilities {
  images: boolean;
  thinking: boolean;
}

const knownModels: readonly [pattern: RegExp, capabilities: GeminiModelCapabilities][] = [
  [/^gemini-(1\.0-)?pro(-\d+)?$/, { images: false, thinking: false }], // Gemini 1.0 Pro: text only
  [/^gemini-1\./, { images: true, thinking: false }],
  [/^gemini-2\.0-flash-thinking/, { images: true, thinking: true }],
  [/^gemini-2\.0-/, { images: true, thinking: false }],
  [/^gemma-3-1b/, { images: false, thinking: false }],
  [/^gemma-/, { images: true, thinking: false }],
  [/^gemini-/, { images: true, thinking: true }], // 2.5, 3 and later
];

const unknownModel: GeminiModelCapabilities = { images: true, thinking: true };

export function geminiModelCapabilities(model: string): GeminiModelCapabilities {
  const name = model.startsWith('models/') ? model.slice('models/'.length) : model;
  return knownModels.find(([pattern]) => pattern.test(name))?.[1] ?? unknownModel;
}

/** GET /v1beta/models → ModelInfo, ids without the `models/` prefix; models that cannot chat are left out. */
export function convertGeminiModels(list: GeminiModelList): ModelInfo[] {
  return (list.models ?? [])
    .filter((model) => model.supportedGenerationMethods?.includes('generateContent') ?? true)
    .map((model) => {
      const id = model.name.startsWith('models/') ? model.name.slice('models/'.length) : model.name;
      const info: ModelInfo = { id, name: model.displayName || id, owned_by: 'google' };
      if (model.inputTokenLimit != null) info.context_length = model.inputTokenLimit;
      info.architecture = {
        input_modalities: geminiModelCapabilities(id).images ? ['text', 'image'] : ['text'],
        output_modalities: ['text'],
      };
      return info;
    });
}
