// The bridge between the UI and main: one contract, a typed client, and the transports that carry it.

export * from './contract.js';
export * from './types.js';
export * from './limits.js';
export * from './tool-media.js';
export { newChatMessage, resourceOfPart, resourceTextPart, type AttachedResource } from './chat-message.js';
export { BridgeError, createBridgeClient, type BridgeClient } from './client.js';
export { bridgePathPrefix, createHttpTransport, type HttpTransportOptions } from './http-transport.js';
export {
  preloadGlobalName,
  type BridgeErrorCode,
  type BridgeErrorInfo,
  type BridgeResult,
  type BridgeSession,
  type BridgeSessionState,
  type BridgeTransport,
} from './transport.js';
