export * from './chat.js';
export {
  chatMessageSchema,
  chatRequestSchema,
  forwardedFieldsOf,
  gatewayConsumedFields,
  isAcceptedImageUrl,
  openRouterOnlyFields,
  reasoningEfforts,
  roles,
  type ProviderPreferences,
  type ReasoningEffort,
} from './chat-request.js';
export * from './errors.js';
export * from './keys.js';
export * from './providers.js';
export * from './usage.js';
export * from './money.js';
export * from './account.js';
export * from './usage-total.js';
export * from './embeddings.js';
export * from './completions.js';
export * from './model-aliases.js';
export * from './response-cache.js';
