// Name/value pairs (an MCP server's env or headers). Values are masked until revealed one by one: they are often
// tokens, and screens get shared. With `secrets`, each value can be locked: kept in the secret store rather than
// the file. A stored value is never sent here: its field shows the last four characters and stays empty until the
// person types a new value to replace it.

import { useState } from 'react';
import { IconButton } from './icon-button.js';

export interface Pair {
  /** Stable across edits, for React keys. */
  id: number;
  name: string;
  value: string;
  /** Locked: the value goes to the secret store. Unset: locked when the name looks secret (TOKEN, KEY…). */
  secret?: boolean;
  /** The value already stored for this pair (`${secret:NAME}` in the file), shown masked; `value` replaces it. */
  stored?: { name: string; masked: string | null };
}

let nextPairId = 1;

export function toPairs(record: unknown): Pair[] {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return [];
  return Object.entries(record as Record<string, unknown>).map(([name, value]) => ({
    id: nextPairId++,
    name,
    value: typeof value === 'string' ? value : JSON.stringify(value),
  }));
}

/** Rows without a name are dropped. */
export function fromPairs(pairs: Pair[]): Record<string, string> {
  return Object.fromEntries(
    pairs.filter((pair) => pair.name.trim() !== '').map((pair) => [pair.name.trim(), pair.value]),
  );
}

interface KeyValueEditorProps {
  /** e.g. "Environment variable", used in every control's name. */
  noun: string;
  pairs: Pair[];
  onChange(pairs: Pair[]): void;
  namePlaceholder?: string;
  /** Offer the lock on each value; `isSecret` says whether a pair is locked now. */
  secrets?: { isSecret(pair: Pair): boolean };
}

export function KeyValueEditor({ noun, pairs, onChange, namePlaceholder, secrets }: KeyValueEditorProps) {
  const [revealed, setRevealed] = useState<ReadonlySet<number>>(new Set());
  const update = (id: number, change: Partial<Pair>) =>
    onChange(pairs.map((pair) => (pair.id === id ? { ...pair, ...change } : pair)));
  const toggle = (id: number) =>
    setRevealed((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <div className="key-values">
      {pairs.map((pair, index) => {
        const shown = revealed.has(pair.id);
        const which = pair.name || `${index + 1}`;
        const locked = secrets?.isSecret(pair) ?? false;
        const kept = locked && pair.stored ? `${pair.stored.masked ?? 'not stored'} (type to replace)` : undefined;
        return (
          <div className={secrets ? 'key-value with-lock' : 'key-value'} key={pair.id}>
            <input
              aria-label={`${noun} ${index + 1} name`}
              placeholder={namePlaceholder ?? 'NAME'}
              value={pair.name}
              spellCheck={false}
              onChange={(event) => update(pair.id, { name: event.target.value })}
            />
            <input
              aria-label={`${noun} ${which} value`}
              type={shown ? 'text' : 'password'}
              autoComplete="off"
              placeholder={kept ?? (locked ? 'secret value' : 'value or ${env:VAR}')}
              value={pair.value}
              spellCheck={false}
              onChange={(event) => update(pair.id, { value: event.target.value })}
            />
            {secrets ? (
              <button
                type="button"
                className="lock-toggle"
                aria-pressed={locked}
                aria-label={`Keep ${which} in the secret store`}
                title={locked ? 'Kept in the secret store' : 'Written in the settings file'}
                onClick={() => update(pair.id, { secret: !locked })}
              >
                <LockIcon locked={locked} />
              </button>
            ) : null}
            <button
              type="button"
              aria-pressed={shown}
              aria-label={`${shown ? 'Hide' : 'Show'} ${which}`}
              onClick={() => toggle(pair.id)}
            >
              {shown ? 'Hide' : 'Show'}
            </button>
            <IconButton
              label={`Remove ${noun.toLowerCase()} ${which}`}
              onClick={() => onChange(pairs.filter((candidate) => candidate.id !== pair.id))}
            >
              <span aria-hidden="true">×</span>
            </IconButton>
          </div>
        );
      })}
      <button type="button" onClick={() => onChange([...pairs, { id: nextPairId++, name: '', value: '' }])}>
        Add {noun.toLowerCase()}
      </button>
    </div>
  );
}

/** A padlock, closed when locked: drawn, so that it shows without an emoji font. */
function LockIcon({ locked }: { locked: boolean }) {
  return (
    <svg
      aria-hidden="true"
      width="14"
      height="14"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
    >
      <rect x="3" y="7" width="10" height="7" rx="1.5" />
      <path d={locked ? 'M5.5 7V5a2.5 2.5 0 0 1 5 0v2' : 'M5.5 7V5a2.5 2.5 0 0 1 5 0'} />
    </svg>
  );
}
