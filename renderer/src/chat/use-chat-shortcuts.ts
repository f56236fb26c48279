// The chat's keyboard shortcuts (the keys: shell/shortcuts.ts). Listened for on the whole page while the chat
// shows, in the capture phase: they work from the message box too, and Shift+Esc reaches here before the Escape
// that stops a reply (conversation-view.tsx skips a key press already taken).

import { useEffect, useEffectEvent } from 'react';
import { isShortcut, type ShortcutId } from '../shell/shortcuts.js';

export type ChatShortcutHandlers = Record<Exclude<ShortcutId, 'help'>, () => void>;

export function useChatShortcuts(handlers: ChatShortcutHandlers): void {
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    // A dialog has the keyboard to itself.
    if (event.defaultPrevented || document.querySelector('dialog[open]')) return;
    const id = (Object.keys(handlers) as (keyof ChatShortcutHandlers)[]).find((candidate) =>
      isShortcut(candidate, event),
    );
    if (!id) return;
    event.preventDefault();
    handlers[id]();
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    document.addEventListener('keydown', listener, true);
    return () => document.removeEventListener('keydown', listener, true);
  }, []);
}
