// The model picker: a searchable list of every provider's models, grouped by provider with the favourites first,
// each with what it can do (images, tools, reasoning), its context and its price. It is an ARIA 1.2 combobox: the
// field shows the model's id, typing filters, the arrows and Enter choose, Escape closes. The last model chosen and
// the favourites are remembered in this UI's storage (the desktop app has its own); a conversation keeps its own
// model in main.

import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { formatUsdExactly } from '../../../shared/api/index.js';
import type { ModelOption } from '../../../shared/bridge/types.js';
import '../styles/model-picker.css';

const storageKey = 'switchyard.model-picker';

interface Remembered {
  last: string | null;
  favourites: string[];
}

function readRemembered(): Remembered {
  try {
    const stored = JSON.parse(localStorage.getItem(storageKey) ?? 'null') as Partial<Remembered> | null;
    return {
      last: typeof stored?.last === 'string' ? stored.last : null,
      favourites: Array.isArray(stored?.favourites)
        ? stored.favourites.filter((id): id is string => typeof id === 'string')
        : [],
    };
  } catch {
    return { last: null, favourites: [] };
  }
}

function remember(change: Partial<Remembered>): Remembered {
  const next = { ...readRemembered(), ...change };
  try {
    localStorage.setItem(storageKey, JSON.stringify(next));
  } catch {
    // Storage full or turned off: the choice still holds until the page closes.
  }
  return next;
}

/** The model a new chat starts on: the last one chosen while it is still offered, else a favourite, else the first. */
export function initialModel(models: readonly ModelOption[]): string | null {
  const { last, favourites } = readRemembered();
  const offered = (id: string | null) => models.find((model) => model.id === id)?.id;
  return offered(last) ?? favourites.map(offered).find(Boolean) ?? models[0]?.id ?? null;
}

/** What a model can do, in the words the search also matches. */
function abilities(model: ModelOption): string[] {
  return [model.acceptsImages && 'vision', model.callsTools && 'tools', model.reasons && 'reasoning'].filter(
    (ability): ability is string => typeof ability === 'string',
  );
}

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

function priceOf(model: ModelOption): string | null {
  if (model.price === undefined) return null;
  if (model.price === null) return 'unpriced';
  return `${formatUsdExactly(model.price.input)} in · ${formatUsdExactly(model.price.output)} out per M`;
}

interface Group {
  key: string;
  label: string;
  models: ModelOption[];
}

function groupsOf(models: readonly ModelOption[], favourites: readonly string[], query: string): Group[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matching = models.filter((model) => {
    const text = `${model.id} ${model.name} ${abilities(model).join(' ')}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
  const groups: Group[] = [];
  const favourite = matching.filter((model) => favourites.includes(model.id));
  if (favourite.length > 0) groups.push({ key: 'favourites', label: 'Favourites', models: favourite });
  for (const provider of new Set(matching.map((model) => model.provider))) {
    const models = matching.filter((model) => model.provider === provider);
    groups.push({ key: `provider-${provider}`, label: provider, models });
  }
  return groups;
}

interface ModelPickerProps {
  models: ModelOption[] | null;
  value: string | null;
  onChange(model: string): void;
}

export function ModelPicker({ models, value, onChange }: ModelPickerProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [favourites, setFavourites] = useState(() => readRemembered().favourites);

  const groups = useMemo(() => groupsOf(models ?? [], favourites, query), [models, favourites, query]);
  const entries = useMemo(
    () => groups.flatMap((group) => group.models.map((model) => ({ key: `${group.key}:${model.id}`, model }))),
    [groups],
  );
  const optionId = (key: string) => `${listId}-${key.replace(/[^\w-]/g, '_')}`;
  const activeEntry = open ? entries[Math.min(active, entries.length - 1)] : undefined;

  useEffect(() => {
    if (activeEntry) document.getElementById(optionId(activeEntry.key))?.scrollIntoView({ block: 'nearest' });
  });

  const show = () => {
    if (open) return;
    setQuery('');
    const current = entries.findIndex((entry) => entry.model.id === value);
    setActive(Math.max(0, current));
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    setQuery('');
  };
  const choose = (model: string) => {
    remember({ last: model });
    close();
    if (model !== value) onChange(model);
  };
  const toggleFavourite = () => {
    if (!value) return;
    const next = favourites.includes(value) ? favourites.filter((id) => id !== value) : [...favourites, value];
    setFavourites(remember({ favourites: next }).favourites);
  };

  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const move = (by: number) => {
      event.preventDefault();
      if (!open) return show();
      if (entries.length > 0)
        setActive((index) => (Math.min(index, entries.length - 1) + by + entries.length) % entries.length);
    };
    if (event.key === 'ArrowDown') move(1);
    else if (event.key === 'ArrowUp') move(-1);
    else if (event.key === 'Enter' && open) {
      event.preventDefault();
      if (activeEntry) choose(activeEntry.model.id);
    } else if (event.key === 'Escape' && open) {
      // Closing the list is all Escape does here (elsewhere it stops a reply).
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  };

  const empty = !models || models.length === 0;
  const favourite = value !== null && favourites.includes(value);
  return (
    <div className="model-picker">
      <input
        role="combobox"
        aria-label="Model"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeEntry ? optionId(activeEntry.key) : undefined}
        autoComplete="off"
        spellCheck={false}
        disabled={empty}
        value={open ? query : (value ?? '')}
        placeholder={
          open
            ? `Search ${models?.length ?? 0} models`
            : models?.length === 0
              ? 'No models: add a provider'
              : 'Choose a model'
        }
        onClick={show}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={keyDown}
        onBlur={close}
      />
      <button
        type="button"
        className="model-favourite"
        aria-pressed={favourite}
        aria-label="Favourite model"
        title={favourite ? 'Remove from favourites' : 'Add to favourites'}
        disabled={value === null}
        onClick={toggleFavourite}
      >
        {favourite ? '★' : '☆'}
      </button>
      {open ? (
        // Clicks in the list keep the focus in the field, so that choosing does not first close the list.
        <div
          role="listbox"
          id={listId}
          aria-label="Models"
          className="model-list"
          onMouseDown={(event) => event.preventDefault()}
        >
          {groups.length === 0 ? <div className="model-list-empty">No model matches “{query}”.</div> : null}
          {groups.map((group) => (
            <div key={group.key} role="group" aria-label={group.label} className="model-group">
              <div className="model-group-label" aria-hidden="true">
                {group.label}
              </div>
              {group.models.map((model) => {
                const key = `${group.key}:${model.id}`;
                const price = priceOf(model);
                return (
                  <div
                    key={key}
                    id={optionId(key)}
                    role="option"
                    aria-selected={model.id === value}
                    className={activeEntry?.key === key ? 'model-option active' : 'model-option'}
                    onClick={() => choose(model.id)}
                  >
                    <span className="model-option-name">
                      {favourites.includes(model.id) ? '★ ' : ''}
                      {model.name}
                    </span>
                    <span className="model-option-facts">
                      {abilities(model).map((ability) => (
                        <span key={ability} className={`model-ability model-ability-${ability}`}>
                          {ability}
                        </span>
                      ))}
                      {model.contextLength ? <span>{compact.format(model.contextLength)} context</span> : null}
                      {price ? <span className={model.price ? undefined : 'model-unpriced'}>{price}</span> : null}
                    </span>
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
