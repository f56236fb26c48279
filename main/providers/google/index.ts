export { createGoogleAdapter, type GoogleAdapter, type GoogleAdapterOptions } from './google-adapter.js';
export { geminiModelCapabilities, type GeminiModelCapabilities } from './gemini-models.js';
