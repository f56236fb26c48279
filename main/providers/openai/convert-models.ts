import type { ModelInfo } from '../../../shared/api/index.js';
import type { UpstreamModelList } from './upstream-schemas.js';

/** GET /models of an OpenAI-compatible server → ModelInfo with the upstream's own ids (the registry prefixes them). */
export function convertOpenAIModels(list: UpstreamModelList): ModelInfo[] {
  return list.data.map((model) => {
    const info: ModelInfo = { id: model.id, name: model.name || model.id };
    if (model.created != null) info.created = model.created;
    if (model.owned_by) info.owned_by = model.owned_by;
    const contextLength = model.context_length ?? model.max_model_len;
    if (contextLength != null) info.context_length = contextLength;
    const input = model.architecture?.input_modalities;
    const output = model.architecture?.output_modalities;
    if (input && output) info.architecture = { input_modalities: input, output_modalities: output };
    // OpenAI-compatible lists do not say what a model produces; an embedding model says so in its name.
    else if (/embed/i.test(model.id))
      info.architecture = { input_modalities: ['text'], output_modalities: ['embeddings'] };
    return info;
  });
}
