// The model picker's list: every provider's models, each with whether it takes images. Providers that say so
// (input_modalities) are believed; for the rest (OpenAI-compatible servers list no modalities) a small list of
// known vision families decides, and anything unknown gets no image button rather than a failing request.

import type { ModelInfo } from '../../shared/api/index.js';
import type { ModelOption } from '../../shared/bridge/types.js';

const knownVisionModels =
  /(gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|\bo[134](-|$)|claude-(3|sonnet|opus|haiku)|gemini|vision|llava|pixtral|-vl\b|vl-|gemma-?3|llama-4|qwen.*vl|minicpm-v|moondream)/i;

export function toModelOption(model: ModelInfo): ModelOption {
  const slash = model.id.indexOf('/');
  const declared = model.architecture?.input_modalities;
  return {
    id: model.id,
    name: model.name && model.name !== model.id.slice(slash + 1) ? model.name : model.id.slice(slash + 1),
    provider: model.id.slice(0, slash),
    acceptsImages: declared ? declared.includes('image') : knownVisionModels.test(model.id),
  };
}

/** Whether a model answers chat: one whose only output is embeddings does not. */
export function isChatModel(model: ModelInfo): boolean {
  const output = model.architecture?.output_modalities;
  return output === undefined || output.some((modality) => modality !== 'embeddings');
}

export function toModelOptions(models: readonly ModelInfo[]): ModelOption[] {
  return models
    .filter(isChatModel)
    .map(toModelOption)
    .sort((a, b) => a.id.localeCompare(b.id));
}
