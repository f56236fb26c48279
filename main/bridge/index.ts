// The bridge between the UI and main: the contract's handlers, once, and the HTTP transport for browsers.

export { BridgeFailure, toBridgeError } from './bridge-errors.js';
export { appVersion } from './app-version.js';
export {
  createBridgeHandlers,
  type BridgeApp,
  type BridgeHandlers,
  type BridgeHandlersOptions,
} from './create-bridge-handlers.js';
export { EventHub, type HubEvent } from './event-hub.js';
export { registerHttpBridge, uiContentSecurityPolicy, type HttpBridgeOptions } from './http-bridge.js';
export { defaultRendererDir, isRendererBuilt } from './renderer-files.js';
export { createUiToken, loopbackHostnames } from './request-guard.js';
export { readUiLink, uiLinkPath, writeUiLink, type UiLink } from './ui-link-file.js';
export { sessionCookieName, UiSignIn } from './ui-sign-in.js';
