// The bridge client for every component, and a hook to follow one of its events for as long as a component
// is mounted.

import { createContext, useContext, useEffect, useEffectEvent, useSyncExternalStore, type ReactNode } from 'react';
import type { BridgeClient } from '../../../shared/bridge/client.js';
import type { BridgeConnection, BridgeConnectionState } from '../../../shared/bridge/transport.js';
import type { BridgeEventName, BridgeEventPayload } from '../../../shared/bridge/contract.js';

const BridgeContext = createContext<BridgeClient | null>(null);

export function BridgeProvider({ bridge, children }: { bridge: BridgeClient; children: ReactNode }) {
  return <BridgeContext.Provider value={bridge}>{children}</BridgeContext.Provider>;
}

export function useBridge(): BridgeClient {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge() needs a <BridgeProvider> above it.');
  return bridge;
}

/** Calls the latest `listener` for each `event`; subscribes once per mount. */
export function useBridgeEvent<E extends BridgeEventName>(
  event: E,
  listener: (payload: BridgeEventPayload<E>) => void,
): void {
  const bridge = useBridge();
  const onEvent = useEffectEvent(listener);
  useEffect(() => bridge.on(event, (payload) => onEvent(payload)), [bridge, event]);
}

const alwaysReachable: BridgeConnection = { state: () => 'reachable', subscribe: () => () => undefined };

/**
 * Whether the server answers (shared/bridge/transport.ts): only a browser tab's server can become unreachable; the
 * desktop app's is always reachable, and so is a component's without a bridge above (a unit test).
 */
export function useBridgeConnection(): BridgeConnection {
  return useContext(BridgeContext)?.connection ?? alwaysReachable;
}

/** The connection's state, rendering again when it changes. */
export function useServerConnection(): BridgeConnectionState {
  const connection = useBridgeConnection();
  return useSyncExternalStore(connection.subscribe, connection.state);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
