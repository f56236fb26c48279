// The sign-in of a browser tab, as the server sees it (transport.ts's BridgeSession). The UI shows the app only once
// the server took it, and the expired-link page as soon as the server refuses it: asked directly at start, then on
// every call and event stream the server refuses, so a tab never waits for a stream that a 401 will not open.

import { Emitter } from '../events/index.js';
import type { BridgeSession, BridgeSessionState } from './transport.js';

/** A server that neither answers nor fails is taken as reachable after this long: the app's calls then say more. */
const checkTimeoutMs = 5_000;

export interface HttpSession extends BridgeSession {
  /** A call the server refused as unauthorized. */
  refused(): void;
  /** Asks the server, for a refusal that did not say why (an event stream: EventSource gets no status). */
  check(): void;
}

/** `checkUrl`: GET /bridge/session, which answers 200 to the tab's sign-in and 401 without, like all of the bridge. */
export function createHttpSession(checkUrl: string): HttpSession {
  let state: BridgeSessionState = 'checking';
  let asked = false;
  const changed = new Emitter<void>();

  const settle = (next: BridgeSessionState) => {
    if (state === next || state === 'refused') return;
    state = next;
    changed.fire();
  };
  const check = () => {
    asked = true;
    fetch(checkUrl, { credentials: 'same-origin', signal: AbortSignal.timeout(checkTimeoutMs) }).then(
      (response) => settle(response.status === 401 ? 'refused' : 'accepted'),
      () => settle('accepted'),
    );
  };

  return {
    state: () => state,
    subscribe(onChange) {
      const subscription = changed.event(onChange);
      if (!asked) check();
      return () => subscription.dispose();
    },
    refused: () => settle('refused'),
    check,
  };
}
