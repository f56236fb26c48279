// Loads something from the bridge for a component: the data, the error in words, and a reload that keeps the
// previous data on screen while it runs (so lists do not flash empty or jump).

import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { errorMessage } from '../bridge/bridge-context.js';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload(): Promise<void>;
}

export function useLoad<T>(load: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  // The caller names the dependencies of `load`, as with useCallback.
  const stableLoad = useCallback(load, deps);

  const reload = useCallback(async () => {
    const call = ++latest.current;
    setLoading(true);
    try {
      const value = await stableLoad();
      if (call !== latest.current) return; // an older answer arriving after a newer one
      setData(value);
      setError(null);
    } catch (failure) {
      if (call === latest.current) setError(errorMessage(failure));
    } finally {
      if (call === latest.current) setLoading(false);
    }
  }, [stableLoad]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { data, error, loading, reload };
}
