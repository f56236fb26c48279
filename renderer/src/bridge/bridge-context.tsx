// The bridge client for every component, and a hook to follow one of its events for as long as a component
// is mounted.

import { createContext, useContext, useEffect, useEffectEvent, type ReactNode } from 'react';
import type { BridgeClient } from '../../../shared/bridge/client.js';
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

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
