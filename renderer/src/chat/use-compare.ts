// A conversation's comparison of models, for the conversation view: starts one, follows its events, stops a
// column or all, and picks the answer the conversation goes on with.

import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { CompareEvent, CompareSnapshot } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge, useBridgeEvent } from '../bridge/bridge-context.js';
import { compareReducer, isComparing, withSnapshot, type CompareState } from './compare-state.js';

type Action = CompareEvent | { type: 'clear' } | { type: 'loaded'; snapshot: CompareSnapshot };

function reducer(state: CompareState | null, action: Action): CompareState | null {
  if (action.type === 'clear') return null;
  if (action.type === 'loaded') return withSnapshot(state, action.snapshot);
  return compareReducer(state, action);
}

export function useCompare(conversationId: string | null, onError: (message: string) => void) {
  const bridge = useBridge();
  const [latest, dispatch] = useReducer(reducer, null);
  /** The conversation a comparison is being started in (a new chat has no id until its first message). */
  const starting = useRef<string | null>(null);
  /** The comparison the screen follows event by event; another one's events make it ask main for the state. */
  const followed = useRef<string | null>(null);
  const loading = useRef<{ again: boolean } | null>(null);
  // A comparison belongs to the conversation it was started in: another one open shows none.
  const state = latest && latest.conversationId === conversationId ? latest : null;

  /** Asks main for the conversation's comparison as it stands (once at a time; again if events came meanwhile). */
  const load = useCallback(
    (id: string) => {
      const run = () => {
        const pending = { again: false };
        loading.current = pending;
        bridge
          .invoke('chat:compare-get', { conversationId: id })
          .then(
            ({ comparison }) => {
              if (!comparison) return;
              followed.current = comparison.compareId;
              dispatch({ type: 'loaded', snapshot: comparison });
            },
            () => undefined, // nothing to show: the conversation works without it
          )
          .finally(() => {
            loading.current = null;
            if (pending.again) run();
          });
      };
      if (loading.current) loading.current.again = true;
      else run();
    },
    [bridge],
  );

  // A conversation opened again (or after a reload) shows its comparison as main has it: events went on meanwhile.
  useEffect(() => {
    followed.current = null;
    if (conversationId) load(conversationId);
  }, [conversationId, load]);

  useBridgeEvent('chat:compare-event', (event) => {
    if (event.conversationId !== conversationId && event.conversationId !== starting.current) return;
    if (event.type === 'compare-start') followed.current = event.compareId;
    if (followed.current === event.compareId) dispatch(event);
    else load(event.conversationId);
  });

  const report = (error: unknown) => onError(errorMessage(error));

  return {
    state,
    running: isComparing(state),
    async start(target: string, text: string, models: string[]): Promise<boolean> {
      starting.current = target;
      try {
        await bridge.invoke('chat:compare', { conversationId: target, text, models });
        return true;
      } catch (error) {
        report(error);
        return false;
      }
    },
    stop(column?: number) {
      if (!state) return;
      bridge.invoke('chat:compare-stop', { compareId: state.compareId, column }).catch(report);
    },
    /** Resolves true once the chosen answer is the conversation's reply. */
    async pick(column: number): Promise<boolean> {
      if (!state) return false;
      try {
        await bridge.invoke('chat:compare-pick', { compareId: state.compareId, column });
        dispatch({ type: 'clear' });
        return true;
      } catch (error) {
        report(error);
        return false;
      }
    },
    close() {
      if (!state) return;
      bridge.invoke('chat:compare-discard', { compareId: state.compareId }).catch(report);
      dispatch({ type: 'clear' });
    },
  };
}
