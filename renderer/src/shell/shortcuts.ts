// The app's keyboard shortcuts as data: the keys of each, what it does, and how a key press is matched to it. The
// screens listen for their own (the chat: use-chat-shortcuts.ts), the help dialog lists them all
// (shortcuts-help.tsx). Chosen not to clash with the browser's or the system's: Ctrl/⌘+K and Ctrl/⌘+/ are free in
// text fields and pages, Ctrl/⌘+Shift+O is the one other chat apps use for a new chat, Shift+Esc does nothing
// elsewhere, and ? alone only counts outside text fields.

export const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

const modKey = isMac ? '⌘' : 'Ctrl';

export type ShortcutId = 'new-chat' | 'search' | 'focus-composer' | 'model-picker' | 'help';

export interface Shortcut {
  /** The keys as shown, one after the other. */
  keys: string[];
  description: string;
}

export interface ShortcutGroup {
  title: string;
  shortcuts: Shortcut[];
}

export const shortcutKeys: Record<ShortcutId, string[]> = {
  'new-chat': [modKey, 'Shift', 'O'],
  search: [modKey, 'K'],
  'focus-composer': ['Shift', 'Esc'],
  'model-picker': [modKey, '/'],
  help: ['?'],
};

/** The same, in the form of aria-keyshortcuts. */
export function ariaKeyShortcut(id: ShortcutId): string {
  return shortcutKeys[id].map((key) => ({ '⌘': 'Meta', Ctrl: 'Control', Esc: 'Escape' })[key] ?? key).join('+');
}

export const shortcutGroups: ShortcutGroup[] = [
  {
    title: 'Chat',
    shortcuts: [
      { keys: shortcutKeys['new-chat'], description: 'New chat' },
      { keys: shortcutKeys.search, description: 'Search conversations' },
      { keys: shortcutKeys['focus-composer'], description: 'Go to the message box' },
      { keys: shortcutKeys['model-picker'], description: 'Choose the model' },
      { keys: ['Esc'], description: 'Stop the reply being written' },
    ],
  },
  {
    title: 'Message box',
    shortcuts: [
      { keys: ['Enter'], description: 'Send' },
      { keys: ['Shift', 'Enter'], description: 'New line' },
    ],
  },
  {
    title: 'Anywhere',
    shortcuts: [
      { keys: shortcutKeys.help, description: 'Show these shortcuts (outside text fields)' },
      { keys: ['Esc'], description: 'Close a dialog' },
    ],
  },
];

/** Whether the key press is this shortcut. */
export function isShortcut(id: ShortcutId, event: KeyboardEvent): boolean {
  const mod = isMac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  const key = event.key.toLowerCase();
  switch (id) {
    case 'new-chat':
      return mod && event.shiftKey && !event.altKey && key === 'o';
    case 'search':
      return mod && !event.shiftKey && !event.altKey && key === 'k';
    case 'focus-composer':
      return event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey && event.key === 'Escape';
    case 'model-picker':
      return mod && !event.altKey && (event.key === '/' || event.code === 'Slash');
    case 'help':
      return event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event.target);
  }
}

/** Whether keys pressed there are text being typed (a field, an editable element). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) {
    return true;
  }
  return (
    target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type)
  );
}
