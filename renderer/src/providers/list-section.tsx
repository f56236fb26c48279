// A list the Providers screen edits under its providers (model aliases, model prices): its heading with the add
// button, what it is for, the error of loading it or of the last removal, then the list itself.

import { useId, useState, type ReactNode } from 'react';
import { errorMessage } from '../bridge/bridge-context.js';
import { ErrorNotice } from '../ui/parts.js';

/** The words of a list's section. */
export interface ListWords {
  title: string;
  addLabel: string;
  /** What the list is for, under the heading. */
  purpose: string;
}

/** What the Providers screen hands a list's section besides the list: its load error, and the add, edit and change. */
export interface ListHandlers<Entry> {
  error: string | null;
  onAdd(): void;
  onEdit(entry: Entry): void;
  onChanged(): void;
}

interface ListSectionProps extends ListWords {
  onAdd(): void;
  error: string | null;
  children: ReactNode;
}

export function ListSection({ title, addLabel, onAdd, purpose, error, children }: ListSectionProps) {
  const titleId = useId();
  return (
    <section className="section" aria-labelledby={titleId}>
      <div className="section-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" onClick={onAdd}>
          {addLabel}
        </button>
      </div>
      <p className="muted">{purpose}</p>
      <ErrorNotice message={error} />
      {children}
    </section>
  );
}

/** Removing one entry of the list: the list reloads after it; a failure shows until a removal succeeds. */
export function useRemoval(remove: (name: string) => Promise<unknown>, onChanged: () => void) {
  const [error, setError] = useState<string | null>(null);
  const run = async (name: string) => {
    try {
      await remove(name);
      setError(null);
      onChanged();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return { remove: (name: string) => void run(name), error };
}
