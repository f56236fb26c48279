export type {
  AdapterCompletion,
  AdapterEmbeddings,
  NativeAnswer,
  NativeCall,
  ProviderAdapter,
  StreamPart,
  UpstreamTarget,
} from './adapter.js';
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
export { isRetryableStatus, UpstreamError, type UpstreamErrorInit } from './http/upstream-errors.js';
