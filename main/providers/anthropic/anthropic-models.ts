// What we know about Anthropic models without asking: whether they take images and whether they can think
// (extended thinking). Patterns are tried in order; a model no entry knows is assumed to do both, since every
// current Claude model does and a wrong "no" would block a caller while a wrong "yes" only lets the upstream answer.

import type { ModelInfo } from '../../../shared/api/index.js';
import type { AnthropicModelList } from './anthropic-api.js';

export interface AnthropicModelCapabilities {
  images: boolean;
  thinking: boolean;
}

const knownModels: readonly [pattern: RegExp, capabilities: AnthropicModelCapabilities][] = [
  [/^claude-(2|instant)/, { images: false, thinking: false }],
  [/^claude-3-7-/, { images: true, thinking: true }],
  [/^claude-3-/, { images: true, thinking: false }], // claude-3-opus/sonnet/haiku, claude-3-5-sonnet/haiku
  [/^claude-(opus|sonnet|haiku)-4/, { images: true, thinking: true }],
  [/^claude-4/, { images: true, thinking: true }],
];

const unknownModel: AnthropicModelCapabilities = { images: true, thinking: true };

export function anthropicModelCapabilities(model: string): AnthropicModelCapabilities {
  return knownModels.find(([pattern]) => pattern.test(model))?.[1] ?? unknownModel;
}

/** GET /v1/models → ModelInfo with Anthropic's ids (the registry prefixes them). */
export function convertAnthropicModels(list: AnthropicModelList): ModelInfo[] {
  return list.data.map((model) => {
    const info: ModelInfo = { id: model.id, name: model.display_name || model.id, owned_by: 'anthropic' };
    const created = model.created_at ? Date.parse(model.created_at) : Number.NaN;
    if (!Number.isNaN(created)) info.created = Math.floor(created / 1000);
    info.architecture = {
      input_modalities: anthropicModelCapabilities(model.id).images ? ['text', 'image'] : ['text'],
      output_modalities: ['text'],
    };
    return info;
  });
}
