// Small pieces every screen uses: the screen frame, notices, empty states, switches and status dots.

import { useId, type ComponentProps, type ReactNode } from 'react';
import { unreachableMessagePrefix } from '../../../shared/bridge/http-transport.js';
import { useServerConnection } from '../bridge/bridge-context.js';

interface ScreenProps {
  title: string;
  /** Buttons at the right of the title. */
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}

export function Screen({ title, actions, children, className }: ScreenProps) {
  const titleId = useId();
  // While a browser tab's server is unreachable its actions are disabled (a disabled fieldset disables every
  // control in it; the banner says why: shell/server-connection.tsx). The body, which scrolls, stays outside the
  // fieldset and takes the keyboard's focus itself meanwhile, so that it can still be scrolled without a mouse.
  const unreachable = useServerConnection() === 'unreachable';
  return (
    <section className={className ? `screen ${className}` : 'screen'} aria-labelledby={titleId}>
      <header className="screen-header">
        <h1 id={titleId}>{title}</h1>
        {actions ? (
          <fieldset className="screen-actions" disabled={unreachable}>
            {actions}
          </fieldset>
        ) : null}
      </header>
      <div className="screen-body" tabIndex={unreachable ? 0 : undefined}>
        <fieldset className="while-reachable" disabled={unreachable}>
          {children}
        </fieldset>
      </div>
    </section>
  );
}

/** An error where it happened; nothing when there is none. */
export function ErrorNotice({ message }: { message: string | null | undefined }) {
  const connection = useServerConnection();
  if (!message) return null;
  // A call that failed for the unreachable server: the banner above the screen says so once, for every panel.
  if (connection !== 'reachable' && message.startsWith(unreachableMessagePrefix)) return null;
  return (
    <p className="notice notice-error" role="alert">
      {message}
    </p>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-state-title">{title}</p>
      {children ? <div className="empty-state-body">{children}</div> : null}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

interface LoadedProps<T> {
  /** What useLoad gave: its error, when it has one, shows above the rest. */
  loaded: { data: T | undefined; loading: boolean; error?: string | null };
  /** What is loading, for "Loading …". */
  what: string;
  /** Shown instead of `children` when what loaded is an empty list. */
  empty?: ReactNode;
  children(data: T): ReactNode;
}

/**
 * What a screen loaded: the error of its last load, then "Loading …" until the first answer, then `children` with
 * it (or `empty`); only the error when the first load failed.
 */
export function Loaded<T>({ loaded, what, empty, children }: LoadedProps<T>) {
  return (
    <>
      <ErrorNotice message={loaded.error} />
      <LoadedData loaded={loaded} what={what} empty={empty}>
        {children}
      </LoadedData>
    </>
  );
}

function LoadedData<T>({ loaded, what, empty, children }: LoadedProps<T>) {
  if (loaded.data === undefined) return loaded.loading ? <Loading what={what} /> : null;
  if (empty !== undefined && Array.isArray(loaded.data) && loaded.data.length === 0) return <>{empty}</>;
  return <>{children(loaded.data)}</>;
}

interface SwitchProps {
  checked: boolean;
  onChange(checked: boolean): void;
  label: string;
  /** Visible text beside the switch; the label stays the accessible name. */
  text?: ReactNode;
  disabled?: boolean;
}

export function Switch({ checked, onChange, label, text, disabled }: SwitchProps) {
  return (
    <label className="switch">
      <input
        type="checkbox"
        role="switch"
        aria-label={label}
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="switch-track" aria-hidden="true" />
      {text ? <span className="switch-text">{text}</span> : null}
    </label>
  );
}

export type DotState = 'ok' | 'busy' | 'off' | 'error';

/** A coloured dot with its state in words for screen readers and tests. */
export function StatusDot({ state, label }: { state: DotState; label: string }) {
  return <span className={`status-dot status-${state}`} role="img" aria-label={label} title={label} />;
}

/** A labelled form field with its error (or hint) under it, tied to the input for screen readers. */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const noteId = useId();
  const note = error ?? hint;
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(error ? { 'aria-invalid': true } : {}), ...(note ? { 'aria-describedby': noteId } : {}) })}
      {note ? (
        <small id={noteId} className={error ? 'field-error' : 'field-hint'}>
          {note}
        </small>
      ) : null}
    </div>
  );
}

type InputAttributes = Omit<ComponentProps<'input'>, 'id' | 'value' | 'onChange'>;

/** A labelled input whose value is its text (Field's common case); the rest are the input's own attributes. */
export function TextField({
  label,
  error,
  hint,
  value,
  onChange,
  ...input
}: InputAttributes & {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(props) => <input {...props} {...input} value={value} onChange={(event) => onChange(event.target.value)} />}
    </Field>
  );
}

/** A field for an amount in USD: any number from 0, with decimals (a decimal keypad on touch screens). */
export function UsdField(props: {
  label: string;
  hint?: ReactNode;
  value: string;
  onChange(value: string): void;
  required?: boolean;
}) {
  return <TextField {...props} type="number" min={0} step="any" inputMode="decimal" />;
}

/** A field choosing one of a fixed set of options, each shown by its label. */
export function ChoiceField<Option extends string>({
  label,
  hint,
  error,
  options,
  labels,
  value,
  onChange,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  options: readonly Option[];
  /** What the person sees of each option. */
  labels: Record<Option, string>;
  value: Option;
  onChange(value: Option): void;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(props) => (
        <select {...props} value={value} onChange={(event) => onChange(event.target.value as Option)}>
          {options.map((option) => (
            <option key={option} value={option}>
              {labels[option]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
