// Where the app is, kept in the address's fragment: `#/chat/<id>` is a conversation, `#/chat` a new chat,
// `#/providers` a screen. The fragment works the same from `switchyard serve` (http://) and the desktop app
// (file://), survives a reload, and gives the browser's back and forward buttons something to move between.
// Moves are pushState/replaceState plus an event of our own, so the screen follows at once (hashchange would
// come a task later); back and forward arrive as popstate.

import { useMemo, useSyncExternalStore } from 'react';

export interface Route {
  /** The screen's id (screens.ts); '' for none. */
  screen: string;
  /** What follows it: for the chat, the conversation's id. */
  rest: string[];
}

const routeEvent = 'switchyard-route';

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a malformed escape: taken as it is (an unknown id then shows as not found)
  }
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decode);
  return { screen: parts[0] ?? '', rest: parts.slice(1) };
}

export function routeHash(screen: string, ...rest: string[]): string {
  return `#/${[screen, ...rest].map(encodeURIComponent).join('/')}`;
}

/** Goes to `hash`: a new history entry, or in place of the current one (`replace`). */
export function navigate(hash: string, { replace = false }: { replace?: boolean } = {}): void {
  if (window.location.hash === hash) return;
  if (replace) window.history.replaceState(null, '', hash);
  else window.history.pushState(null, '', hash);
  window.dispatchEvent(new Event(routeEvent));
}

function subscribe(onChange: () => void): () => void {
  for (const name of [routeEvent, 'popstate', 'hashchange']) window.addEventListener(name, onChange);
  return () => {
    for (const name of [routeEvent, 'popstate', 'hashchange']) window.removeEventListener(name, onChange);
  };
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return useMemo(() => parseRoute(hash), [hash]);
}
