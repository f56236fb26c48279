// Loads one conversation and keeps it current from the bridge's chat events. Deltas arrive far more often than
// the screen refreshes, so events are applied in one batch per animation frame.

import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { BridgeError } from '../../../shared/bridge/client.js';
import type { ChatEvent } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge, useBridgeEvent } from '../bridge/bridge-context.js';
import { conversationReducer, initialConversationState, type ConversationAction } from './conversation-state.js';

export function useConversation(conversationId: string | null) {
  const bridge = useBridge();
  const [state, dispatch] = useReducer(conversationReducer, initialConversationState);
  const queued = useRef<ChatEvent[]>([]);
  const frame = useRef<number | null>(null);
  /** A conversation the screen just created and showed itself: loading it could race its first events. */
  const fresh = useRef<string | null>(null);
  /** The id asked for when main has no such conversation (deleted, or a stale address). */
  const [missingId, setMissingId] = useState<string | null>(null);

  const reload = useCallback(async () => {
    if (!conversationId) return;
    try {
      const detail = await bridge.invoke('chat:get-conversation', { id: conversationId });
      queued.current = [];
      dispatch({ type: 'loaded', detail });
    } catch (error) {
      if (error instanceof BridgeError && error.code === 'not-found') {
        setMissingId(conversationId);
        dispatch({ type: 'reset' });
      } else dispatch({ type: 'error', error: errorMessage(error) });
    }
  }, [bridge, conversationId]);

  useEffect(() => {
    if (!conversationId) return dispatch({ type: 'reset' });
    if (fresh.current === conversationId) return;
    fresh.current = null;
    void reload();
  }, [conversationId, reload]);

  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  useBridgeEvent('chat:event', (event) => {
    if (event.conversationId !== conversationId) return;
    queued.current.push(event);
    frame.current ??= requestAnimationFrame(() => {
      frame.current = null;
      const events = queued.current;
      queued.current = [];
      if (events.length > 0) dispatch({ type: 'events', events });
    });
  });

  const act = useCallback((action: ConversationAction) => dispatch(action), []);
  const markFresh = useCallback((id: string) => {
    fresh.current = id;
  }, []);
  const missing = conversationId !== null && missingId === conversationId;
  return { state, dispatch: act, reload, markFresh, missing };
}
