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
  /** The browser's transport only: the desktop app's bridge needs no sign-in. */
  session?: BridgeSession;
  /** The browser's transport only: the desktop app's IPC never loses its server. */
  connection?: BridgeConnection;
}

/**
 * Whether the server takes the sign-in a browser tab's calls carry. `checking` until the server first answered;
 * `refused` from the first call or event stream it refused as unauthorized, for good (a new link means a reload);
 * else `accepted`, also when the server could not be asked (the app's own calls then say it cannot be reached).
 */
export type BridgeSessionState = 'checking' | 'accepted' | 'refused';

/** Shaped for React's useSyncExternalStore. */
export interface BridgeSession {
  state(): BridgeSessionState;
  /** The first subscriber makes the server check the sign-in; returns the function that unsubscribes. */
  subscribe(onChange: () => void): () => void;
}

/**
 * Whether the server answers at all (a browser tab's server may stop, or the network to it fail): `checking` from
 * a failed call or event stream while the server is asked directly, `unreachable` when that fails too, until the
 * server answers again (it is asked every few seconds meanwhile). Shaped for React's useSyncExternalStore.
 */
export type BridgeConnectionState = 'reachable' | 'checking' | 'unreachable';

export interface BridgeConnection {
  state(): BridgeConnectionState;
  /** Returns the function that unsubscribes. */
  subscribe(onChange: () => void): () => void;
}

/** The name under which the Electron preload exposes its transport. */
export const preloadGlobalName = 'switchyardBridge';
