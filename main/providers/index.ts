export type { AdapterCompletion, ProviderAdapter, StreamPart, UpstreamTarget } from './adapter.js';
export { createOpenAIAdapter, type OpenAIAdapter, type OpenAIAdapterOptions } from './openai/index.js';
export {
  ProviderRegistry,
  splitModelId,
  type ProviderRegistryOptions,
  type ProviderSource,
  type ResolvedModel,
} from './registry.js';
