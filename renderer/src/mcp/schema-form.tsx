// The form of a tool's arguments, one field per property of its input schema (schema-args.ts): text and number
// inputs, a checkbox for a boolean, a list for an enum, one item per line for an array, a group for an object.
// Required fields are marked, descriptions and defaults shown under them, and what is wrong shown at the field.

import { useId, useState } from 'react';
import { parseTyped, valueAt, type SchemaField, type SimpleType } from './schema-args.js';

interface SchemaFormProps {
  fields: readonly SchemaField[];
  value: Record<string, unknown>;
  errors: ReadonlyMap<string, string>;
  onChange(path: readonly string[], next: unknown): void;
}

export function SchemaForm({ fields, value, errors, onChange }: SchemaFormProps) {
  if (fields.length === 0) return <p className="muted">This tool takes no arguments.</p>;
  return (
    <div className="schema-form">
      {fields.map((field) => (
        <FieldView
          key={field.name}
          field={field}
          path={[field.name]}
          value={value}
          errors={errors}
          onChange={onChange}
        />
      ))}
    </div>
  );
}

interface FieldViewProps extends Omit<SchemaFormProps, 'fields'> {
  field: SchemaField;
  path: readonly string[];
}

function FieldView({ field, path, value, errors, onChange }: FieldViewProps) {
  const id = useId();
  const error = errors.get(field.path);
  const current = valueAt(value, path);
  const note = error ?? hintOf(field);
  const noteProps = {
    ...(note ? { 'aria-describedby': `${id}-note` } : {}),
    ...(error ? { 'aria-invalid': true as const } : {}),
    ...(field.required ? { 'aria-required': true as const } : {}),
  };
  const noteView = note ? (
    <small id={`${id}-note`} className={error ? 'field-error' : 'field-hint'}>
      {note}
    </small>
  ) : null;
  const label = (
    <>
      <span className="mono">{field.name}</span>
      {field.title && field.title !== field.name ? <span className="muted"> {field.title}</span> : null}
      {field.required ? (
        <span className="required-mark" aria-hidden="true">
          {' '}
          *
        </span>
      ) : null}
    </>
  );

  if (field.kind === 'object') {
    return (
      <fieldset className="fieldset" aria-describedby={noteProps['aria-describedby']}>
        <legend>{label}</legend>
        {noteView}
        {field.fields.map((inner) => (
          <FieldView
            key={inner.name}
            field={inner}
            path={[...path, inner.name]}
            value={value}
            errors={errors}
            onChange={onChange}
          />
        ))}
      </fieldset>
    );
  }
  if (field.kind === 'simple' && field.type === 'boolean' && !field.enum) {
    return (
      <div className={error ? 'field field-invalid' : 'field'}>
        <label className="checkbox">
          <input
            type="checkbox"
            {...noteProps}
            checked={current === true}
            onChange={(event) => onChange(path, event.target.checked)}
          />
          {label}
        </label>
        {noteView}
      </div>
    );
  }
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {field.kind === 'simple' && field.enum ? (
        <select
          id={id}
          {...noteProps}
          value={field.enum.findIndex((option) => option === current)}
          onChange={(event) => {
            const index = Number(event.target.value);
            onChange(path, index < 0 ? undefined : field.enum![index]);
          }}
        >
          <option value={-1}>{field.required ? 'Choose…' : 'Not set'}</option>
          {field.enum.map((option, index) => (
            <option key={index} value={index}>
              {String(option)}
            </option>
          ))}
        </select>
      ) : field.kind === 'array' ? (
        <DraftInput
          id={id}
          inputProps={noteProps}
          multiline
          value={current}
          toText={(items) => (Array.isArray(items) ? items.map(String).join('\n') : JSON.stringify(items))}
          parse={(text) => {
            const lines = text.split('\n').filter((line) => line.trim() !== '');
            return lines.length === 0 ? undefined : lines.map((line) => parseTyped(field.items.type, line));
          }}
          onChange={(next) => onChange(path, next)}
        />
      ) : (
        <DraftInput
          id={id}
          inputProps={noteProps}
          type={field.type}
          value={current}
          toText={(given) => (typeof given === 'string' ? given : JSON.stringify(given))}
          parse={(text) => (text === '' ? undefined : parseTyped(field.type, text))}
          onChange={(next) => onChange(path, next)}
        />
      )}
      {noteView}
    </div>
  );
}

interface DraftInputProps {
  id: string;
  inputProps: Record<string, unknown>;
  type?: SimpleType;
  multiline?: boolean;
  value: unknown;
  toText(value: unknown): string;
  parse(text: string): unknown;
  onChange(next: unknown): void;
}

/**
 * An input whose text is kept while it means the current value ("1." is 1, "" is nothing), and shows the value
 * afresh when it was changed elsewhere (the JSON editor).
 */
function DraftInput({ id, inputProps, type, multiline, value, toText, parse, onChange }: DraftInputProps) {
  const [draft, setDraft] = useState(() => (value === undefined ? '' : toText(value)));
  const shown =
    JSON.stringify(parse(draft)) === JSON.stringify(value) ? draft : value === undefined ? '' : toText(value);
  const change = (text: string) => {
    setDraft(text);
    onChange(parse(text));
  };
  if (multiline) {
    return (
      <textarea
        id={id}
        {...inputProps}
        rows={3}
        spellCheck={false}
        value={shown}
        onChange={(event) => change(event.target.value)}
      />
    );
  }
  return (
    <input
      id={id}
      {...inputProps}
      type="text"
      inputMode={type === 'integer' ? 'numeric' : type === 'number' ? 'decimal' : undefined}
      spellCheck={false}
      value={shown}
      onChange={(event) => change(event.target.value)}
    />
  );
}

function hintOf(field: SchemaField): string | undefined {
  const parts = [
    field.description?.trim().replace(/([^.!?:])$/, '$1.'),
    field.kind === 'array' ? 'One per line.' : undefined,
    field.default !== undefined ? `Default: ${JSON.stringify(field.default)}.` : undefined,
  ].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(' ') : undefined;
}
