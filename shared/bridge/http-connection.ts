// Whether a browser tab's server answers at all (transport.ts's BridgeConnection). A failed fetch or a dropped
// event stream only raises a suspicion: the server is asked directly, and only when that fails too is it
// unreachable, so a stream that the server closed and the browser reopens at once never flashes a warning. While
// unreachable it is asked again every few seconds, and any answer (even a refusal of the sign-in: that is the
// session's to report) makes it reachable again.

import { Emitter } from '../events/index.js';
import type { BridgeConnection, BridgeConnectionState } from './transport.js';

export interface HttpConnection extends BridgeConnection {
  /** A call or the event stream failed as if the server were gone: ask it. */
  suspect(): void;
  /** The server answered something. */
  answered(): void;
}

export interface HttpConnectionOptions {
  /** A GET that any running server answers quickly (GET /bridge/session). */
  probeUrl: string;
  /** How long to wait between checks while unreachable. */
  retryMs?: number;
  /** What the check's answer says besides "reachable" (its status: the session's business). */
  onProbeAnswer?(status: number): void;
}

const probeTimeoutMs = 5_000;

export function createHttpConnection(options: HttpConnectionOptions): HttpConnection {
  let state: BridgeConnectionState = 'reachable';
  // Each answer or new suspicion starts a new round; a check of an older round is ignored when it ends.
  let round = 0;
  let checking = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const changed = new Emitter<void>();

  const settle = (next: BridgeConnectionState) => {
    if (state === next) return;
    state = next;
    changed.fire();
  };
  const stopChecking = () => {
    round += 1;
    checking = false;
    clearTimeout(retry);
  };
  const check = (current: number) => {
    fetch(options.probeUrl, {
      credentials: 'same-origin',
      cache: 'no-store',
      signal: AbortSignal.timeout(probeTimeoutMs),
    }).then(
      (response) => {
        if (current !== round) return;
        stopChecking();
        settle('reachable');
        options.onProbeAnswer?.(response.status);
      },
      () => {
        if (current !== round) return;
        settle('unreachable');
        retry = setTimeout(() => check(current), options.retryMs ?? 2_000);
      },
    );
  };

  return {
    state: () => state,
    subscribe(onChange) {
      const subscription = changed.event(onChange);
      return () => subscription.dispose();
    },
    suspect() {
      if (checking) return;
      checking = true;
      settle(state === 'reachable' ? 'checking' : state);
      check(round);
    },
    answered() {
      if (checking) stopChecking();
      settle('reachable');
    },
  };
}
