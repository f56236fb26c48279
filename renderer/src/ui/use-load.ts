// Loads something from the bridge for a component: the data, the error in words, and a reload that keeps the
// previous data on screen while it runs (so lists do not flash empty or jump). A load that failed because a
// browser tab's server was unreachable is no error of its own (the app's banner says it once) and is loaded again
// when the server is back.

import { useCallback, useEffect, useRef, useState } from 'react';
import { BridgeError } from '../../../shared/bridge/client.js';
import { errorMessage, useBridgeConnection } from '../bridge/bridge-context.js';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload(): Promise<void>;
}

/**
 * `load` is loaded again whenever it changes, so it must be stable: pass it through useCallback, whose dependency
 * list the lint checks (`useLoad(useCallback(() => bridge.invoke('keys:list'), [bridge]))`).
 */
export function useLoad<T>(load: () => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  // The load whose latest call has answered: until it is the current one, the first answer is still coming.
  const [answered, setAnswered] = useState<{ load: () => Promise<T> } | null>(null);
  const [reloading, setReloading] = useState(false);
  const latest = useRef(0);
  // Asked when a load fails: the transport has already said whether the failure made it doubt the server.
  const connection = useBridgeConnection();
  // The latest load failed for the unreachable server: load again when it is back.
  const waitingForServer = useRef(false);

  const loadLatest = useCallback(() => {
    const call = ++latest.current;
    // Only the latest call's answer counts: an older one arriving after a newer one is dropped.
    const settle = (outcome: () => void) => {
      if (call !== latest.current) return;
      outcome();
      setAnswered({ load });
      setReloading(false);
    };
    return load().then(
      (value) =>
        settle(() => {
          setData(value);
          setError(null);
        }),
      (failure: unknown) => {
        if (failure instanceof BridgeError && failure.code === 'transport' && connection.state() !== 'reachable') {
          // Still loading, as far as the screen goes: it loads again when the server answers.
          if (call === latest.current) waitingForServer.current = true;
          return;
        }
        settle(() => setError(errorMessage(failure)));
      },
    );
  }, [load, connection]);

  useEffect(() => {
    void loadLatest();
  }, [loadLatest]);

  useEffect(
    () =>
      connection.subscribe(() => {
        if (connection.state() !== 'reachable' || !waitingForServer.current) return;
        waitingForServer.current = false;
        void loadLatest();
      }),
    [connection, loadLatest],
  );

  const reload = useCallback(async () => {
    setReloading(true);
    await loadLatest();
  }, [loadLatest]);

  return { data, error, loading: answered?.load !== load || reloading, reload };
}
