// Copies text with the Clipboard API (Electron, and browsers on a secure origin such as 127.0.0.1), saying so for a
// moment; where the clipboard is refused it says that instead, so the user copies by hand.

import { useEffect, useState, type ReactNode } from 'react';

interface CopyButtonProps {
  text: string;
  /** What is copied, for the accessible name: "Copy base URL". */
  what: string;
  className?: string;
  /** Shown instead of the words "Copy" / "Copied", for a row of small icon buttons. */
  icon?: ReactNode;
}

export function CopyButton({ text, what, className, icon }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2_000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <span className={className ? `copy-button ${className}` : 'copy-button'}>
      <button
        type="button"
        className={icon ? 'icon-button' : undefined}
        aria-label={`Copy ${what}`}
        title={icon ? (state === 'copied' ? 'Copied' : `Copy ${what}`) : undefined}
        onClick={() => void copy()}
      >
        {icon ?? (state === 'copied' ? 'Copied' : 'Copy')}
      </button>
      {/* For screen readers: the button's own text says "Copied". */}
      <span className="visually-hidden" role="status">
        {state === 'copied'
          ? 'Copied to the clipboard.'
          : state === 'failed'
            ? 'Copying was refused: select it and copy.'
            : ''}
      </span>
    </span>
  );
}
