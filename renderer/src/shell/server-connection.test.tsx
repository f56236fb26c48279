// The unreachable-server banner shows only where the bridge can lose its server (a browser tab's HTTP transport):
// never in the desktop app, whose IPC bridge has no connection to report; and a load that failed for the
// unreachable server is no error of its own and is loaded again when the server is back.

import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { useCallback, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError, type BridgeClient } from '../../../shared/bridge/client.js';
import type { BridgeConnection, BridgeConnectionState } from '../../../shared/bridge/transport.js';
import { BridgeProvider } from '../bridge/bridge-context.js';
import { useLoad } from '../ui/use-load.js';
import { ServerUnreachableBanner } from './server-connection.js';

afterEach(cleanup);

function fakeConnection(initial: BridgeConnectionState) {
  let state = initial;
  const listeners = new Set<() => void>();
  const connection: BridgeConnection = {
    state: () => state,
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
  const become = (next: BridgeConnectionState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  return { connection, become };
}

function bridgeWith(connection?: BridgeConnection): BridgeClient {
  return {
    invoke: () => Promise.reject(new Error('not used')),
    on: () => () => undefined,
    ...(connection ? { connection } : {}),
  } as BridgeClient;
}

const withBridge = (bridge: BridgeClient) =>
  function Wrapper({ children }: { children: ReactNode }) {
    return <BridgeProvider bridge={bridge}>{children}</BridgeProvider>;
  };

describe('the unreachable-server banner', () => {
  it('never shows in the desktop app (a bridge without a connection)', () => {
    render(<ServerUnreachableBanner />, { wrapper: withBridge(bridgeWith()) });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows while the server is unreachable, not while it is only being checked', () => {
    const { connection, become } = fakeConnection('checking');
    render(<ServerUnreachableBanner />, { wrapper: withBridge(bridgeWith(connection)) });
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => become('unreachable'));
    expect(screen.getByRole('alert').textContent).toMatch(/^Switchyard's server is not reachable\./);
    act(() => become('reachable'));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('a load that failed for the unreachable server', () => {
  it('is no error, and is loaded again when the server is back', async () => {
    const { connection, become } = fakeConnection('reachable');
    let calls = 0;
    const load = () => {
      calls += 1;
      if (calls > 1) return Promise.resolve('three keys');
      // As the transport does: a failed fetch makes it check the server before the call answers.
      become('checking');
      return Promise.reject(new BridgeError('transport', "Switchyard's server is not reachable: Failed to fetch"));
    };
    const { result } = renderHook(() => useLoad(useCallback(load, [])), {
      wrapper: withBridge(bridgeWith(connection)),
    });
    await act(async () => undefined);
    expect(result.current).toMatchObject({ data: undefined, error: null, loading: true });
    act(() => become('unreachable'));
    expect(calls).toBe(1);
    await act(async () => become('reachable'));
    expect(calls).toBe(2);
    expect(result.current).toMatchObject({ data: 'three keys', error: null, loading: false });
  });

  it('is an error in the desktop app, whose bridge reports no connection', async () => {
    const load = () => Promise.reject(new BridgeError('transport', 'main did not answer'));
    const { result } = renderHook(() => useLoad(useCallback(load, [])), { wrapper: withBridge(bridgeWith()) });
    await act(async () => undefined);
    expect(result.current).toMatchObject({ error: 'main did not answer', loading: false });
  });
});
