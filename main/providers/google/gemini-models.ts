// Gemini's model list, with the modalities of each model from the capability table.

import type { ModelInfo } from '../../../shared/api/index.js';
import { architectureOf, modelCapabilities, type ModelCapabilities } from '../model-capabilities.js';
import type { GeminiModelList } from './gemini-api.js';

export function geminiModelCapabilities(model: string): ModelCapabilities {
  return modelCapabilities('google', model);
}

/**
 * GET /v1beta/models → ModelInfo, ids without the `models/` prefix. Models that embed are listed with the output
 * modality `embeddings`; models that can neither chat nor embed are left out.
 */
export function convertGeminiModels(list: GeminiModelList): ModelInfo[] {
  return (list.models ?? []).flatMap((model) => {
    const methods = model.supportedGenerationMethods;
    const chats = methods?.includes('generateContent') ?? true;
    const embeds = methods?.some((method) => method === 'embedContent' || method === 'batchEmbedContents') ?? false;
    if (!chats && !embeds) return [];
    const id = model.name.startsWith('models/') ? model.name.slice('models/'.length) : model.name;
    const info: ModelInfo = { id, name: model.displayName || id, owned_by: 'google' };
    if (model.inputTokenLimit != null) info.context_length = model.inputTokenLimit;
    info.architecture = chats
      ? architectureOf(geminiModelCapabilities(id))
      : { input_modalities: ['text'], output_modalities: ['embeddings'] };
    return [info];
  });
}
