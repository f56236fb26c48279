// The bridge over HTTP, for the UI in a browser (`switchyard serve`): POST /bridge/invoke/<channel> with a JSON
// body, and one EventSource on GET /bridge/events for every event. Authentication is the HttpOnly cookie that
// visiting the printed URL set, so nothing here handles the token; what the server says of it is the session's
// (http-session.ts).

import { Emitter } from '../events/index.js';
import { createHttpConnection } from './http-connection.js';
import { createHttpSession } from './http-session.js';
import type { BridgeErrorInfo, BridgeResult, BridgeTransport } from './transport.js';

export const bridgePathPrefix = '/bridge';

/** How a call that found no server begins its message: the UI's banner says it once instead (shell). */
export const unreachableMessagePrefix = "Switchyard's server is not reachable";

export interface HttpTransportOptions {
  /** Where the UI is served, e.g. `http://127.0.0.1:7420`. */
  origin: string;
  /** How long an invoke waits for the event stream to open before going ahead anyway. */
  eventsOpenWaitMs?: number;
  /** How often an unreachable server is asked again. */
  reconnectRetryMs?: number;
}

export function createHttpTransport(options: HttpTransportOptions): BridgeTransport {
  const emitters = new Map<string, Emitter<unknown>>();
  const session = createHttpSession(`${options.origin}${bridgePathPrefix}/session`);
  let source: EventSource | undefined;
  let opened: Promise<void> = Promise.resolve();
  const connection = createHttpConnection({
    probeUrl: `${options.origin}${bridgePathPrefix}/session`,
    ...(options.reconnectRetryMs === undefined ? {} : { retryMs: options.reconnectRetryMs }),
    // The server is back but no longer takes this tab's sign-in (it restarted with a new token): the session's page.
    onProbeAnswer: (status) => {
      if (status === 401) session.refused();
    },
  });
  // Back: a stream the browser gave up on is opened anew (it reconnects by itself after a network error).
  connection.subscribe(() => {
    if (connection.state() !== 'reachable' || source?.readyState !== EventSource.CLOSED) return;
    if (session.state() === 'refused') return;
    source = undefined;
    ensureSource();
  });

  function ensureSource(): EventSource {
    if (source) return source;
    const created = new EventSource(`${options.origin}${bridgePathPrefix}/events`, { withCredentials: true });
    source = created;
    let stopWaiting = () => {};
    opened = new Promise((resolve) => {
      stopWaiting = resolve;
      created.addEventListener('open', () => resolve(), { once: true });
      setTimeout(resolve, options.eventsOpenWaitMs ?? 3_000);
    });
    created.addEventListener('open', () => connection.answered());
    created.addEventListener('error', () => {
      // Reconnecting: the server closed the stream, or is gone.
      if (created.readyState === EventSource.CONNECTING) connection.suspect();
      // Closed for good means the server answered with something other than a stream (a network failure leaves
      // it reconnecting): nothing to wait for, and the session finds out whether the sign-in was refused.
      if (created.readyState !== EventSource.CLOSED) return;
      stopWaiting();
      session.check();
    });
    for (const event of emitters.keys()) created.addEventListener(event, dispatch);
    return created;
  }

  function dispatch(message: Event): void {
    const { type, data } = message as Event & { data: string };
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    emitters.get(type)?.fire(payload);
  }

  return {
    async invoke(channel, request) {
      // Events of a call (a chat's deltas) must not arrive before the stream that carries them is open.
      await opened;
      let response: Response;
      try {
        response = await fetch(`${options.origin}${bridgePathPrefix}/invoke/${encodeURIComponent(channel)}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request ?? {}),
        });
      } catch (error) {
        connection.suspect();
        return transportFailure(`${unreachableMessagePrefix}: ${(error as Error).message}`);
      }
      connection.answered();
      if (response.status === 401) session.refused();
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        return transportFailure(`Switchyard answered ${response.status} without a JSON body.`);
      }
      if (response.ok && body !== null && typeof body === 'object' && 'result' in body) {
        return { ok: true, value: body.result };
      }
      const error = (body as { error?: BridgeErrorInfo } | null)?.error;
      if (error && typeof error.code === 'string' && typeof error.message === 'string') return { ok: false, error };
      return transportFailure(`Switchyard answered ${response.status}.`);
    },

    on(event, listener) {
      let emitter = emitters.get(event);
      if (!emitter) {
        // Reported the way the browser reports a throwing DOM listener, after the other listeners had the event.
        emitter = new Emitter({
          onListenerError: (error) =>
            queueMicrotask(() => {
              throw error;
            }),
        });
        emitters.set(event, emitter);
        source?.addEventListener(event, dispatch);
      }
      const subscription = emitter.event(listener);
      ensureSource();
      // The bridge's `on` hands back a function: what a React effect returns as its cleanup.
      return () => subscription.dispose();
    },

    session,
    connection,
  };
}

function transportFailure(message: string): BridgeResult {
  return { ok: false, error: { code: 'transport', message } };
}
