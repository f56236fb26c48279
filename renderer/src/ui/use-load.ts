// Loads something from the bridge for a component: the data, the error in words, and a reload that keeps the
// previous data on screen while it runs (so lists do not flash empty or jump).

import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../bridge/bridge-context.js';

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
      (failure: unknown) => settle(() => setError(errorMessage(failure))),
    );
  }, [load]);

  useEffect(() => {
    void loadLatest();
  }, [loadLatest]);

  const reload = useCallback(async () => {
    setReloading(true);
    await loadLatest();
  }, [loadLatest]);

  return { data, error, loading: answered?.load !== load || reloading, reload };
}
