// Anthropic's model list, with the modalities of each model from the capability table.

import type { ModelInfo } from '../../../shared/api/index.js';
import { architectureOf, modelCapabilities, type ModelCapabilities } from '../model-capabilities.js';
import type { AnthropicModelList } from './anthropic-api.js';

export function anthropicModelCapabilities(model: string): ModelCapabilities {
  return modelCapabilities('anthropic', model);
}

/** GET /v1/models → ModelInfo with Anthropic's ids (the registry prefixes them). */
export function convertAnthropicModels(list: AnthropicModelList): ModelInfo[] {
  return list.data.map((model) => {
    const info: ModelInfo = { id: model.id, name: model.display_name || model.id, owned_by: 'anthropic' };
    const created = model.created_at ? Date.parse(model.created_at) : Number.NaN;
    if (!Number.isNaN(created)) info.created = Math.floor(created / 1000);
    info.architecture = architectureOf(anthropicModelCapabilities(model.id));
    return info;
  });
}
