// What carries the bridge: IPC in Electron (the preload exposes exactly this as `window.switchyardBridge`), HTTP
// and SSE in a browser (http-transport.ts). Untyped on purpose: the typed surface is the client (client.ts),
// and main validates whatever arrives.

export type BridgeErrorCode =
  | 'invalid-request'
  | 'unknown-channel'
  | 'not-found'
  | 'conflict'
  | 'unavailable'
  | 'unauthorized'
  | 'forbidden'
  | 'internal'
  /** The transport itself failed (network down, main not answering). */
  | 'transport';

export interface BridgeErrorInfo {
  code: BridgeErrorCode;
  message: string;
}

/** Every invoke answers with this envelope, never a thrown error: it crosses IPC and HTTP unchanged. */
export type BridgeResult = { ok: true; value: unknown } | { ok: false; error: BridgeErrorInfo };

export interface BridgeTransport {
  invoke(channel: string, request: unknown): Promise<BridgeResult>;
  /** Returns the function that unsubscribes. */
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/** The name under which the Electron preload exposes its transport. */
export const preloadGlobalName = 'switchyardBridge';
