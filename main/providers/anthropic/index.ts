export { createAnthropicAdapter, type AnthropicAdapter, type AnthropicAdapterOptions } from './anthropic-adapter.js';
export { anthropicModelCapabilities, type AnthropicModelCapabilities } from './anthropic-models.js';
