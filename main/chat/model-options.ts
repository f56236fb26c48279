// The model picker's list: every provider's models, each with what it can do. Providers that say so
// (input_modalities) are believed about images; for the rest (OpenAI-compatible servers list no modalities) and for
// tools and reasoning, which no list reports, small lists of known families decide. PDFs go as `file` parts: a
// provider listing "file" among the input modalities is believed; otherwise only families whose APIs read PDFs
// (Claude, Gemini, OpenAI's vision models) are offered them — a local model behind an OpenAI-compatible server
// gets no PDF rather than a failing request. Anything unknown gets no image
// button rather than a failing request, and no tools or reasoning badge rather than a promise.

import type { ModelInfo } from '../../shared/api/index.js';
import type { ModelOption } from '../../shared/bridge/types.js';

const knownVisionModels =
  /(gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|\bo[134](-|$)|claude-(3|sonnet|opus|haiku)|gemini|vision|llava|pixtral|-vl\b|vl-|gemma-?3|llama-4|qwen.*vl|minicpm-v|moondream)/i;

const knownPdfModels = /(gpt-4o|gpt-4\.1|gpt-5|\bo[134](-|$)|claude-(3-[57]|sonnet|opus|haiku-4|[4-9])|gemini)/i;

const knownToolModels =
  /(gpt-4|gpt-5|gpt-3\.5-turbo|gpt-oss|\bo[134](-|$)|claude-(3|sonnet|opus|haiku)|gemini|mistral-(large|medium|small)|codestral|ministral|llama-?3\.[1-3]|llama-4|qwen-?2\.5|qwen-?3|deepseek-(chat|v3)|command-r|grok|kimi|glm-4)/i;

const knownReasoningModels =
  /(\bo[1345](-|$)|gpt-5|gpt-oss|deepseek-(r1|reasoner)|qwq|qwen-?3|thinking|magistral|grok-(3-mini|4)|claude-(3-7|opus-4|sonnet-4|haiku-4|4)|gemini-(2\.5|3))/i;

export function toModelOption(model: ModelInfo): ModelOption {
  const slash = model.id.indexOf('/');
  const declared = model.architecture?.input_modalities;
  return {
    id: model.id,
    name: model.name && model.name !== model.id.slice(slash + 1) ? model.name : model.id.slice(slash + 1),
    provider: model.id.slice(0, slash),
    acceptsImages: declared ? declared.includes('image') : knownVisionModels.test(model.id),
    acceptsPdfs: declared
      ? declared.includes('file') || (declared.includes('image') && knownPdfModels.test(model.id))
      : knownPdfModels.test(model.id),
    callsTools: knownToolModels.test(model.id),
    reasons: knownReasoningModels.test(model.id),
    contextLength: model.context_length ?? null,
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
