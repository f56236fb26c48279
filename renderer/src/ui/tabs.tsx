// Tabs as WAI-ARIA describes them: one tab stop for the list, arrow keys (and Home/End) move between tabs.

import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface Tab {
  id: string;
  label: string;
  content: () => ReactNode;
}

export function Tabs({ label, tabs, initial }: { label: string; tabs: Tab[]; initial?: string }) {
  const [selected, setSelected] = useState(initial ?? tabs[0]?.id);
  const baseId = useId();
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const current = tabs.find((tab) => tab.id === selected) ?? tabs[0];

  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((tab) => tab.id === current?.id);
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    if (next === -1) return;
    event.preventDefault();
    const tab = tabs[next]!;
    setSelected(tab.id);
    buttons.current.get(tab.id)?.focus();
  };

  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) buttons.current.set(tab.id, element);
              else buttons.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${baseId}-${tab.id}-tab`}
            aria-selected={tab.id === current?.id}
            aria-controls={`${baseId}-${tab.id}-panel`}
            tabIndex={tab.id === current?.id ? 0 : -1}
            className="tab"
            onClick={() => setSelected(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {current ? (
        <div
          role="tabpanel"
          id={`${baseId}-${current.id}-panel`}
          aria-labelledby={`${baseId}-${current.id}-tab`}
          className="tab-panel"
        >
          {current.content()}
        </div>
      ) : null}
    </div>
  );
}
