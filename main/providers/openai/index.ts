export { createOpenAIAdapter, type OpenAIAdapter, type OpenAIAdapterOptions } from './openai-adapter.js';
