// Questions MCP servers ask during a tool call (elicitation): each shown as a form generated from the schema the
// server sent, one at a time, whichever screen is open. Submit accepts with what was filled in; Decline says no;
// closing (Escape, ×, Cancel) cancels. A question withdrawn by main (its call ended) closes by itself.

import { useState, type FormEvent } from 'react';
import type { McpElicitation } from '../../../shared/bridge/types.js';
import { useBridge } from '../bridge/bridge-context.js';
import { Dialog } from '../ui/dialog.js';
import { ErrorNotice } from '../ui/parts.js';
import {
  elicitationContent,
  elicitationFields,
  formProblems,
  initialValues,
  type ElicitationField,
  type FormValues,
} from './elicitation-form.js';
import { usePromptAnswer, usePromptQueue } from './prompt-queue.js';

/** Mount once, at the app's root: it shows the questions as they come. */
export function ElicitationPrompts() {
  const { first, done } = usePromptQueue('mcp:elicitation', 'mcp:elicitation-ended');
  return first ? <ElicitationDialog key={first.id} question={first} onDone={done} /> : null;
}

function ElicitationDialog({ question, onDone }: { question: McpElicitation; onDone(): void }) {
  const bridge = useBridge();
  const [fields] = useState(() => elicitationFields(question.requestedSchema));
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [problems, setProblems] = useState<Map<string, string>>(new Map());
  const { answer, busy, error } = usePromptAnswer(
    (request: Parameters<typeof bridge.invoke<'mcp:answer-elicitation'>>[1]) =>
      bridge.invoke('mcp:answer-elicitation', request),
    onDone,
  );
  const cancel = () => void answer({ id: question.id, action: 'cancel' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = formProblems(fields, values);
    setProblems(found);
    if (found.size > 0) return;
    void answer({ id: question.id, action: 'accept', content: elicitationContent(fields, values) });
  };
  const set = (name: string, value: FormValues[string]) => setValues((current) => ({ ...current, [name]: value }));

  return (
    <Dialog
      title={`${question.server} asks`}
      onClose={cancel}
      description={<span className="elicitation-message">{question.message}</span>}
    >
      <form className="form" onSubmit={submit}>
        {fields.map((field) => (
          <FieldInput
            key={field.name}
            field={field}
            value={values[field.name]}
            problem={problems.get(field.name)}
            onChange={(value) => set(field.name, value)}
          />
        ))}
        <p className="field-hint">
          What you submit goes to the MCP server “{question.server}”. Never enter passwords or keys here.
        </p>
        <ErrorNotice message={error} />
        <div className="dialog-actions">
          <button type="button" onClick={cancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" onClick={() => void answer({ id: question.id, action: 'decline' })} disabled={busy}>
            Decline
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Submit
          </button>
        </div>
      </form>
    </Dialog>
  );
}

interface FieldInputProps {
  field: ElicitationField;
  value: FormValues[string] | undefined;
  problem: string | undefined;
  onChange(value: FormValues[string]): void;
}

function FieldInput({ field, value, problem, onChange }: FieldInputProps) {
  const id = `elicitation-${field.name}`;
  const hintId = `${id}-hint`;
  const hint = [field.description, problem].filter(Boolean).join(' ');
  const described = hint ? { 'aria-describedby': hintId } : {};
  const label = `${field.label}${field.required ? ' (required)' : ''}`;
  const hintLine = hint ? (
    <span id={hintId} className={problem ? 'field-error' : 'field-hint'}>
      {hint}
    </span>
  ) : null;

  if (field.kind === 'boolean') {
    return (
      <div className="field">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={value === true}
            onChange={(event) => onChange(event.target.checked)}
            {...described}
          />
          {label}
        </label>
        {hintLine}
      </div>
    );
  }
  if (field.kind === 'choices') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset className="fieldset" {...described} aria-invalid={problem ? true : undefined}>
        <legend>{label}</legend>
        {field.options.map((option) => (
          <label key={option.value} className="checkbox">
            <input
              type="checkbox"
              checked={chosen.includes(option.value)}
              onChange={(event) =>
                onChange(
                  event.target.checked ? [...chosen, option.value] : chosen.filter((item) => item !== option.value),
                )
              }
            />
            {option.label}
          </label>
        ))}
        {hintLine}
      </fieldset>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {field.kind === 'choice' ? (
        <select
          id={id}
          value={text}
          required={field.required}
          onChange={(event) => onChange(event.target.value)}
          {...described}
        >
          <option value="">{field.required ? 'Choose…' : '(none)'}</option>
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : field.kind === 'number' ? (
        <input
          id={id}
          type="number"
          value={text}
          required={field.required}
          step={field.integer ? 1 : 'any'}
          min={field.minimum}
          max={field.maximum}
          onChange={(event) => onChange(event.target.value)}
          {...described}
        />
      ) : (
        <input
          id={id}
          type={field.inputType}
          value={text}
          required={field.required}
          minLength={field.minLength}
          maxLength={field.maxLength}
          onChange={(event) => onChange(event.target.value)}
          {...described}
        />
      )}
      {hintLine}
    </div>
  );
}
