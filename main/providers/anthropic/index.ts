export { createAnthropicAdapter, type AnthropicAdapter, type AnthropicAdapterOptions } from './anthropic-adapter.js';
export { anthropicModelCapabilities } from './anthropic-models.js';
