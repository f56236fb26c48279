// Gemini's model list, with the modalities of each model from the capability table.

import type { ModelInfo } from '../../../shared/api/index.js';
import { architectureOf, modelCapabilities, type ModelCapabilities } from '../model-capabilities.js';
import type { GeminiModelList } from './gemini-api.js';

export function geminiModelCapabilities(model: string): ModelCapabilities {
  return modelCapabilities('google', model);
}

/** GET /v1beta/models → ModelInfo, ids without the `models/` prefix; models that cannot chat are left out. */
export function convertGeminiModels(list: GeminiModelList): ModelInfo[] {
  return (list.models ?? [])
    .filter((model) => model.supportedGenerationMethods?.includes('generateContent') ?? true)
    .map((model) => {
      const id = model.name.startsWith('models/') ? model.name.slice('models/'.length) : model.name;
      const info: ModelInfo = { id, name: model.displayName || id, owned_by: 'google' };
      if (model.inputTokenLimit != null) info.context_length = model.inputTokenLimit;
      info.architecture = architectureOf(geminiModelCapabilities(id));
      return info;
    });
}
