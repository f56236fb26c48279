// The keyboard shortcuts, listed in a dialog: opened by ? (outside text fields) or by the button at the foot of the
// navigation, so that they can be found without knowing them.

import { useEffect, useState } from 'react';
import { Dialog } from '../ui/dialog.js';
import '../styles/shortcuts.css';
import { ariaKeyShortcut, isShortcut, shortcutGroups } from './shortcuts.js';

export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (!isShortcut('help', event) || event.defaultPrevented || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      setOpen(true);
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  return (
    <>
      <button
        type="button"
        className="icon-button shortcuts-button"
        aria-label="Keyboard shortcuts"
        aria-keyshortcuts={ariaKeyShortcut('help')}
        title="Keyboard shortcuts (?)"
        onClick={() => setOpen(true)}
      >
        <span aria-hidden="true">?</span>
      </button>
      {open ? (
        <Dialog title="Keyboard shortcuts" onClose={() => setOpen(false)}>
          <div className="shortcut-groups">
            {shortcutGroups.map((group) => (
              <section key={group.title} aria-label={group.title}>
                <h3>{group.title}</h3>
                <dl className="shortcut-list">
                  {group.shortcuts.map((shortcut) => (
                    <div key={`${group.title} ${shortcut.description}`}>
                      <dt>{shortcut.description}</dt>
                      <dd>
                        {shortcut.keys.map((key, index) => (
                          <span key={key}>
                            {index > 0 ? <span aria-hidden="true"> + </span> : null}
                            <kbd>{key}</kbd>
                          </span>
                        ))}
                      </dd>
                    </div>
                  ))}
                </dl>
              </section>
            ))}
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
