// A conversation's comparison of models, for the conversation view: starts one, follows its events, stops a
// column or all, and picks the answer the conversation goes on with.

import { useReducer, useRef } from 'react';
import type { CompareEvent } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge, useBridgeEvent } from '../bridge/bridge-context.js';
import { compareReducer, isComparing, type CompareState } from './compare-state.js';

type Action = CompareEvent | { type: 'clear' };

function reducer(state: CompareState | null, action: Action): CompareState | null {
  return action.type === 'clear' ? null : compareReducer(state, action);
}

export function useCompare(conversationId: string | null, onError: (message: string) => void) {
  const bridge = useBridge();
  const [latest, dispatch] = useReducer(reducer, null);
  /** The conversation a comparison is being started in (a new chat has no id until its first message). */
  const starting = useRef<string | null>(null);
  // A comparison belongs to the conversation it was started in: another one open shows none.
  const state = latest && latest.conversationId === conversationId ? latest : null;

  useBridgeEvent('chat:compare-event', (event) => {
    if (event.conversationId === conversationId || event.conversationId === starting.current) dispatch(event);
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
