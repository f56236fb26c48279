// The typed face of the bridge for the UI: `bridge.invoke('chat:send', {...})` and `bridge.on('chat:event', fn)`,
// over whichever transport the renderer picked at start-up. Imports the contract for its types only, so zod
// stays out of the renderer's bundle.

import type { BridgeChannel, BridgeEventName, BridgeEventPayload, BridgeRequest, BridgeResponse } from './contract.js';
import type { BridgeConnection, BridgeErrorCode, BridgeSession, BridgeTransport } from './transport.js';

export class BridgeError extends Error {
  readonly code: BridgeErrorCode;

  constructor(code: BridgeErrorCode, message: string) {
    super(message);
    this.name = 'BridgeError';
    this.code = code;
  }
}

/** A channel whose request has no required field may be invoked without one. */
type RequestArgs<C extends BridgeChannel> =
  Record<string, never> extends BridgeRequest<C> ? [request?: BridgeRequest<C>] : [request: BridgeRequest<C>];

export interface BridgeClient {
  /** Resolves with the channel's response; rejects with a BridgeError. */
  invoke<C extends BridgeChannel>(channel: C, ...request: RequestArgs<C>): Promise<BridgeResponse<C>>;
  /** Returns the function that unsubscribes. */
  on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEventPayload<E>) => void): () => void;
  /** The sign-in of a browser tab (transport.ts); absent in the desktop app. */
  session?: BridgeSession;
  /** Whether a browser tab's server answers (transport.ts); absent in the desktop app. */
  connection?: BridgeConnection;
}

export function createBridgeClient(transport: BridgeTransport): BridgeClient {
  return {
    async invoke(channel, ...request) {
      const result = await transport.invoke(channel, request[0] ?? {});
      if (!result.ok) throw new BridgeError(result.error.code, result.error.message);
      return result.value as BridgeResponse<typeof channel>;
    },
    on(event, listener) {
      return transport.on(event, (payload) => listener(payload as BridgeEventPayload<typeof event>));
    },
    session: transport.session,
    connection: transport.connection,
  };
}
