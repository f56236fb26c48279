// Name/value pairs (an MCP server's env or headers). Values are masked until revealed one by one: they are often
// tokens, and screens get shared.

import { useState } from 'react';
import { IconButton } from './icon-button.js';

export interface Pair {
  /** Stable across edits, for React keys. */
  id: number;
  name: string;
  value: string;
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
}

export function KeyValueEditor({ noun, pairs, onChange, namePlaceholder }: KeyValueEditorProps) {
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
        return (
          <div className="key-value" key={pair.id}>
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
              placeholder="value or ${env:VAR}"
              value={pair.value}
              spellCheck={false}
              onChange={(event) => update(pair.id, { value: event.target.value })}
            />
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
