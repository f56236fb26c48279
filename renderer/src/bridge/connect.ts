// Picks the transport once, at start-up: the Electron preload's IPC transport when it is there, else HTTP to the
// server that served this page. Nothing else in the renderer knows which one it got.

import { createBridgeClient, type BridgeClient } from '../../../shared/bridge/client.js';
import { createHttpTransport } from '../../../shared/bridge/http-transport.js';
import type { BridgeTransport } from '../../../shared/bridge/transport.js';

declare global {
  interface Window {
    /** Set by preload/index.cts in the desktop app. */
    switchyardBridge?: BridgeTransport;
  }
}

export function connectBridge(): BridgeClient {
  const transport = window.switchyardBridge ?? createHttpTransport({ origin: window.location.origin });
  return createBridgeClient(transport);
}
