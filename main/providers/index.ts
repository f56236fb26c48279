export type {
  AdapterCompletion,
  AdapterEmbeddings,
  NativeAnswer,
  NativeCall,
  ProviderAdapter,
  StreamPart,
  UpstreamTarget,
} from './adapter.js';
// What the gateway's protocols read of the upstreams they also speak (Anthropic Messages, the Gemini API), and what
// its routes say of a model: through here, never from a provider's own files.
export { anthropicReasoningFormat, anthropicUsageSchema, type AnthropicUsage } from './anthropic/anthropic-api.js';
export { convertAnthropicUsage } from './anthropic/convert-anthropic-usage.js';
export { geminiReasoningFormat, geminiResponseSchema } from './google/gemini-api.js';
export { convertGeminiUsage } from './google/convert-gemini-usage.js';
export { mapGeminiFinishReason } from './google/map-gemini-finish-reason.js';
export { approximateLocationOf, webSearchKindOf } from './web-search.js';
export { translatedParameters } from './parameter-support.js';
export { toTokenPrices, type PricedCost, type PriceTarget, type TokenPrices } from './pricing/index.js';
export { createOpenAIAdapter, type OpenAIAdapter, type OpenAIAdapterOptions } from './openai/index.js';
export { createAnthropicAdapter, type AnthropicAdapter, type AnthropicAdapterOptions } from './anthropic/index.js';
export { createGoogleAdapter, type GoogleAdapter, type GoogleAdapterOptions } from './google/index.js';
export {
  EnvironmentProviders,
  environmentConventions,
  readEnvironmentProviders,
  type EnvironmentProvider,
} from './env-providers.js';
export {
  LocalProviders,
  lmStudioBaseUrl,
  localServersFromEnv,
  ollamaBaseUrl,
  type LocalProvidersOptions,
  type LocalServer,
} from './local-providers.js';
export {
  ProviderRegistry,
  splitModelId,
  type DiscoveredProviderSource,
  type ProviderRegistryOptions,
  type ProviderSource,
  type ResolvedModel,
} from './registry.js';
export { isRetryableStatus, parseRetryAfter, UpstreamError, type UpstreamErrorInit } from './http/upstream-errors.js';
