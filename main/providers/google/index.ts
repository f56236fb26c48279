export { createGoogleAdapter, type GoogleAdapter, type GoogleAdapterOptions } from './google-adapter.js';
export { geminiModelCapabilities } from './gemini-models.js';
