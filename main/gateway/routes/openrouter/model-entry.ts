// A model as OpenRouter's API describes it (GET /models, /models/{id}, /models/{author}/{slug}/endpoints), built
// from what the provider listed, the price book and the provider's kind. `@openrouter/sdk` parses these entries
// strictly, so every field its schema requires is present; what Switchyard cannot know is null where the schema
// allows null and OpenRouter's own "unknown" value where it does not (decision 012).

import type { ModelInfo, ProviderKind } from '../../../../shared/api/index.js';
import { translatedParameters, type TokenPrices } from '../../../providers/index.js';

/** USD per token as decimal strings; `"-1"` (OpenRouter's price of its variable-priced router) when unknown. */
export interface OpenRouterPricing {
  prompt: string;
  completion: string;
  input_cache_read?: string;
  input_cache_write?: string;
}

export interface OpenRouterArchitecture {
  /** `text+image->text`. */
  modality: string;
  input_modalities: string[];
  output_modalities: string[];
  tokenizer: string;
  instruct_type: null;
}

export interface OpenRouterModel {
  id: string;
  canonical_slug: string;
  name: string;
  /** Unix seconds; 0 when the provider did not say. */
  created: number;
  description: string;
  context_length: number | null;
  architecture: OpenRouterArchitecture;
  pricing: OpenRouterPricing;
  top_provider: { context_length: number | null; max_completion_tokens: null; is_moderated: false };
  per_request_limits: null;
  supported_parameters: string[];
  default_parameters: null;
  supported_voices: null;
  links: { details: string };
  /** OpenAI's fields, for OpenAI-style clients reading the same list. */
  object: 'model';
  owned_by: string;
}

/** One way to reach a model: in Switchyard, the provider named in its id. */
export interface OpenRouterEndpoint {
  name: string;
  model_id: string;
  model_name: string;
  /** 0 when the provider did not say (the schema has no null here). */
  context_length: number;
  pricing: OpenRouterPricing;
  provider_name: string;
  tag: string;
  quantization: null;
  max_completion_tokens: null;
  max_prompt_tokens: null;
  supported_parameters: string[];
  supports_implicit_caching: boolean;
  supports_tool_choice: { auto: boolean; function: boolean; none: boolean; required: boolean };
  uptime_last_30m: null;
  uptime_last_5m: null;
  uptime_last_1d: null;
  latency_last_30m: null;
  throughput_last_30m: null;
}

export interface OpenRouterModelEndpoints {
  id: string;
  name: string;
  created: number;
  description: string;
  architecture: OpenRouterArchitecture;
  endpoints: OpenRouterEndpoint[];
}

/** What the entry is built from besides the provider's listing. */
export interface ModelFacts {
  /** The kind of the provider in the id (undefined: a provider that is gone; treated as OpenAI-compatible). */
  kind: ProviderKind | undefined;
  /** The price book's price, or null when the model has none. */
  prices: TokenPrices | null;
  /** The API base the entry is served under, for `links.details`. */
  basePrefix: string;
}

/** Every request parameter OpenRouter names: an OpenAI-compatible upstream gets them all, as they came. */
export const openRouterParameters = [
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'top_a',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
  'max_tokens',
  'max_completion_tokens',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'prediction',
  'seed',
  'response_format',
  'structured_outputs',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'include_reasoning',
  'reasoning',
  'reasoning_effort',
  'web_search_options',
  'verbosity',
] as const;

/** The gateway turns these into each kind's thinking settings itself. */
const reasoningParameters = ['include_reasoning', 'reasoning', 'reasoning_effort'];

/** The parameters a model of this kind honours, in OpenRouter's names. */
export function supportedParametersOf(kind: ProviderKind | undefined): string[] {
  if (kind === undefined || kind === 'openai') return [...openRouterParameters];
  const translated = translatedParameters[kind];
  const named = (openRouterParameters as readonly string[]).filter(
    (name) => translated.includes(name) || reasoningParameters.includes(name),
  );
  // A JSON schema in response_format is translated, which is what OpenRouter calls structured outputs.
  return translated.includes('response_format') ? [...new Set([...named, 'structured_outputs'])] : named;
}

const picoPerUsdDigits = 12;

/** Whole pico-dollars per token → OpenRouter's decimal string of USD per token, exact: 150000 → `"0.00000015"`. */
export function picoToUsdString(pico: number): string {
  const digits = String(Math.round(Math.abs(pico))).padStart(picoPerUsdDigits + 1, '0');
  const whole = digits.slice(0, -picoPerUsdDigits);
  const fraction = digits.slice(-picoPerUsdDigits).replace(/0+$/, '');
  return `${pico < 0 ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** OpenRouter's value for a price nobody can tell in advance (its router models list it). */
export const unknownPrice = '-1';

export function pricingOf(prices: TokenPrices | null): OpenRouterPricing {
  if (!prices) return { prompt: unknownPrice, completion: unknownPrice };
  const pricing: OpenRouterPricing = {
    prompt: picoToUsdString(prices.inputPico),
    completion: picoToUsdString(prices.outputPico),
  };
  if (prices.cacheReadPico !== null) pricing.input_cache_read = picoToUsdString(prices.cacheReadPico);
  if (prices.cacheWritePico !== null) pricing.input_cache_write = picoToUsdString(prices.cacheWritePico);
  return pricing;
}

// The tokenizer family by model name, in OpenRouter's names; tried in order.
const tokenizers: readonly [pattern: RegExp, tokenizer: string][] = [
  [/(^|\/)(gpt|chatgpt|o\d|text-embedding|davinci|babbage)/, 'GPT'],
  [/claude/, 'Claude'],
  [/gemini/, 'Gemini'],
  [/gemma/, 'Gemma'],
  [/grok/, 'Grok'],
  [/qwen3/, 'Qwen3'],
  [/qwen|qwq/, 'Qwen'],
  [/deepseek/, 'DeepSeek'],
  [/llama-?4/, 'Llama4'],
  [/llama-?3/, 'Llama3'],
  [/llama-?2/, 'Llama2'],
  [/mistral|mixtral|codestral|magistral|ministral|pixtral|devstral/, 'Mistral'],
  [/command/, 'Cohere'],
  [/nova/, 'Nova'],
];

/** The tokenizer family of a model (`GPT`, `Claude`, `Llama3`…), `Other` when the name does not say. */
export function tokenizerOf(modelId: string): string {
  const name = modelId.slice(modelId.indexOf('/') + 1).toLowerCase();
  return tokenizers.find(([pattern]) => pattern.test(name))?.[1] ?? 'Other';
}

function architectureOf(info: ModelInfo): OpenRouterArchitecture {
  // A provider that does not list modalities is taken to do text in, text out: the one thing every chat model does.
  const input = info.architecture?.input_modalities ?? ['text'];
  const output = info.architecture?.output_modalities ?? ['text'];
  return {
    modality: `${input.join('+')}->${output.join('+')}`,
    input_modalities: input,
    output_modalities: output,
    tokenizer: tokenizerOf(info.id),
    instruct_type: null,
  };
}

function providerIdOf(modelId: string): string {
  return modelId.slice(0, Math.max(0, modelId.indexOf('/')));
}

function descriptionOf(info: ModelInfo): string {
  const upstreamName = info.id.slice(info.id.indexOf('/') + 1);
  return `${upstreamName}, served through the provider "${providerIdOf(info.id)}".`;
}

/** A listed model (`id` already `<provider>/<model>`) in OpenRouter's shape. */
export function toOpenRouterModel(info: ModelInfo, facts: ModelFacts): OpenRouterModel {
  const contextLength = info.context_length ?? null;
  return {
    id: info.id,
    canonical_slug: info.id,
    name: info.name,
    created: info.created ?? 0,
    description: descriptionOf(info),
    context_length: contextLength,
    architecture: architectureOf(info),
    pricing: pricingOf(facts.prices),
    top_provider: { context_length: contextLength, max_completion_tokens: null, is_moderated: false },
    per_request_limits: null,
    supported_parameters: supportedParametersOf(facts.kind),
    default_parameters: null,
    supported_voices: null,
    links: { details: `${facts.basePrefix}/models/${info.id}/endpoints` },
    object: 'model',
    owned_by: info.owned_by ?? providerIdOf(info.id),
  };
}

/** GET /models/{id}/endpoints: the model with its one endpoint, the provider in its id. */
export function toOpenRouterEndpoints(model: OpenRouterModel): OpenRouterModelEndpoints {
  const provider = providerIdOf(model.id);
  const tools = model.supported_parameters.includes('tools');
  return {
    id: model.id,
    name: model.name,
    created: model.created,
    description: model.description,
    architecture: model.architecture,
    endpoints: [
      {
        name: `${provider} | ${model.id}`,
        model_id: model.id,
        model_name: model.name,
        context_length: model.context_length ?? 0,
        pricing: model.pricing,
        provider_name: provider,
        tag: provider,
        quantization: null,
        max_completion_tokens: null,
        max_prompt_tokens: null,
        supported_parameters: model.supported_parameters,
        supports_implicit_caching: false,
        supports_tool_choice: { auto: tools, function: tools, none: tools, required: tools },
        uptime_last_30m: null,
        uptime_last_5m: null,
        uptime_last_1d: null,
        latency_last_30m: null,
        throughput_last_30m: null,
      },
    ],
  };
}

/** `?supported_parameters=tools,response_format`: the models that support every one named. */
export function supportsAll(model: Pick<OpenRouterModel, 'supported_parameters'>, wanted: readonly string[]): boolean {
  return wanted.every((name) => model.supported_parameters.includes(name));
}

/** `?output_modalities=text,image` (or `all`): the models that produce any of them. */
export function producesAny(model: Pick<OpenRouterModel, 'architecture'>, wanted: readonly string[]): boolean {
  return wanted.includes('all') || wanted.some((name) => model.architecture.output_modalities.includes(name));
}
