// "‹ 2 / 3 ›" beside a message that has other versions (a regenerated reply, an edited message), as in every chat
// app: the arrows show the previous or next version and the conversation that followed it. Always visible, unlike
// the message's other actions, so that the versions are seen without hovering. Showing a version replaces the
// message on screen (another id, another element): the arrow that was pressed keeps the focus there, so that a
// keyboard user can step through the versions.

import { useEffect, useRef } from 'react';
import { ChevronBackIcon, ChevronIcon } from '../shell/icons.js';
import { IconButton } from '../ui/icon-button.js';

/** The switch in progress: which versions, and the arrow to focus on the version shown next. */
let focusAfterSwitch: { versions: string; direction: 'previous' | 'next' } | null = null;

interface VersionSwitcherProps {
  /** What the versions are of, for the labels: "reply" or "message". */
  what: string;
  /** The ids of all versions, oldest first. */
  versions: string[];
  current: string;
  /** The conversation is answering: another version cannot be shown now. */
  busy: boolean;
  onShow(messageId: string): void;
}

export function VersionSwitcher({ what, versions, current, busy, onShow }: VersionSwitcherProps) {
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const at = versions.indexOf(current);
  const key = versions.join(' ');

  useEffect(() => {
    if (focusAfterSwitch?.versions !== key) return;
    const wanted = focusAfterSwitch.direction === 'previous' ? previous.current : next.current;
    const other = wanted === previous.current ? next.current : previous.current;
    focusAfterSwitch = null;
    (wanted?.disabled ? other : wanted)?.focus();
  }, [key]);

  if (at < 0 || versions.length < 2) return null;
  const show = (direction: 'previous' | 'next') => {
    const target = versions[direction === 'previous' ? at - 1 : at + 1];
    if (!target) return;
    focusAfterSwitch = { versions: key, direction };
    onShow(target);
  };
  return (
    <div
      className="version-switcher"
      role="group"
      aria-label={`Version ${at + 1} of ${versions.length} of this ${what}`}
    >
      <IconButton
        ref={previous}
        label="Previous version"
        title="Previous version"
        disabled={busy || at === 0}
        onClick={() => show('previous')}
      >
        <ChevronBackIcon />
      </IconButton>
      <span className="version-position">
        {at + 1} / {versions.length}
      </span>
      <IconButton
        ref={next}
        label="Next version"
        title="Next version"
        disabled={busy || at === versions.length - 1}
        onClick={() => show('next')}
      >
        <ChevronIcon />
      </IconButton>
    </div>
  );
}
