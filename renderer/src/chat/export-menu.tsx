// The conversation header's export: a menu of the two files a conversation can be saved as — Markdown to read or
// share, JSON with everything (every version, tool calls, usage), which the conversation list imports back.
// Escape or a click elsewhere closes the menu; the file downloads as any download of the page does.

import { useId, useRef, useState, type FocusEvent } from 'react';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { DownloadIcon } from '../shell/icons.js';
import { downloadFile } from '../ui/download-file.js';
import { IconButton } from '../ui/icon-button.js';

const formats = [
  { format: 'markdown', label: 'Markdown (.md)' },
  { format: 'json', label: 'JSON (.json), to import again' },
] as const;

/** Wider than the menu's longest choice. */
const menuRoomPx = 320;

interface ExportMenuProps {
  conversationId: string | null;
  onError(message: string): void;
}

export function ExportMenu({ conversationId, onError }: ExportMenuProps) {
  const bridge = useBridge();
  const [open, setOpen] = useState(false);
  /** The menu opens rightwards when the window has room for it there, else leftwards (the button's usual place). */
  const [towardsLeft, setTowardsLeft] = useState(true);
  const toggle = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  async function save(format: 'markdown' | 'json') {
    setOpen(false);
    toggle.current?.focus();
    if (!conversationId) return;
    try {
      const file = await bridge.invoke('chat:export-conversation', { id: conversationId, format });
      downloadFile(file.fileName, file.text, file.mimeType);
    } catch (error) {
      onError(errorMessage(error));
    }
  }

  const closeWhenLeft = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
  };

  return (
    <div
      className="export-menu"
      onBlur={closeWhenLeft}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.preventDefault(); // the menu takes this Escape, not the reply being written
        setOpen(false);
        toggle.current?.focus();
      }}
    >
      <IconButton
        ref={toggle}
        label="Export conversation"
        title="Export conversation"
        aria-expanded={open}
        aria-controls={menuId}
        disabled={!conversationId}
        onClick={(event) => {
          setTowardsLeft(event.currentTarget.getBoundingClientRect().left + menuRoomPx > window.innerWidth);
          setOpen((shown) => !shown);
        }}
      >
        <DownloadIcon />
      </IconButton>
      {open ? (
        <div
          id={menuId}
          className={towardsLeft ? 'export-menu-items' : 'export-menu-items towards-right'}
          role="group"
          aria-label="Export as"
        >
          {formats.map(({ format, label }, index) => (
            <button key={format} type="button" autoFocus={index === 0} onClick={() => void save(format)}>
              {label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
