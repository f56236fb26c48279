// Installing one registry server: a field for each value it declares (required ones marked, secrets as password
// fields, choices as a select), then — before anything is written — the exact command it will run, the names of the
// variables it gets, what changes for an update, and a runtime this machine lacks. Install is the last step.

import { useCallback, useState, type FormEvent } from 'react';
import type { InstallInput, RegistryInstallPreview } from '../../../shared/mcp/registry-types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog } from '../ui/dialog.js';
import { ErrorNotice, Field, Loaded } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';
import { ReviewList } from './run-review.js';

const kindText: Record<InstallInput['kind'], string> = {
  env: 'An environment variable',
  arg: 'An argument',
  header: 'A header',
};

interface RegistryInstallDialogProps {
  name: string;
  /** An install link's version and registry, and what the person should know about where it comes from. */
  version?: string;
  registry?: string;
  warning?: string | undefined;
  onClose(): void;
  onInstalled(entryName: string): void;
}

export function RegistryInstallDialog(props: RegistryInstallDialogProps) {
  const { name, version, registry, warning, onClose, onInstalled } = props;
  const bridge = useBridge();
  const form = useLoad(
    useCallback(
      () =>
        bridge.invoke('mcp:registry-install-form', {
          name,
          ...(version ? { version } : {}),
          ...(registry ? { registry } : {}),
        }),
      [bridge, name, version, registry],
    ),
  );
  const [values, setValues] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<RegistryInstallPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const update = form.data?.installedVersion !== undefined;

  const set = (key: string, value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setPreview(null);
  };
  const request = () => ({
    name,
    version: form.data!.version,
    ...(registry ? { registry } : {}),
    values: nonEmpty(values),
  });

  const review = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      setPreview(await bridge.invoke('mcp:registry-preview', request()));
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const install = async () => {
    setBusy(true);
    setError(null);
    try {
      const written = await bridge.invoke('mcp:registry-install', request());
      if (written.saved) onInstalled(written.entryName);
      else setError(written.problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  const blocked = !preview || preview.missing.length > 0 || preview.missingRuntime !== undefined;

  return (
    <Dialog title={`${update ? 'Update' : 'Install'} ${name}`} onClose={onClose} wide>
      {warning ? (
        <p className="notice" role="alert">
          {warning}
        </p>
      ) : null}
      <Loaded loaded={form} what="the server's install data">
        {(data) => (
          <form onSubmit={(event) => void review(event)} className="registry-install">
            <p className="muted">
              {data.description} Version {data.version}
              {update ? ` (installed: ${data.installedVersion})` : ''}, added as “{data.entryName}”.
            </p>
            {data.inputs.length === 0 ? <p>It takes no values.</p> : null}
            {data.inputs.map((input) => (
              <InputField
                key={`${input.kind}:${input.key}`}
                input={input}
                value={values[input.key] ?? ''}
                kept={data.kept.includes(input.key)}
                missing={preview?.missing.includes(input.key) ?? false}
                onChange={(value) => set(input.key, value)}
              />
            ))}
            <div className="dialog-actions">
              <button type="submit">Review what it runs</button>
            </div>
          </form>
        )}
      </Loaded>
      {preview ? (
        <section aria-label="Before it is saved" className="registry-review">
          {preview.changes.length > 0 ? (
            <ul aria-label="What the update changes">
              {preview.changes.map((change) => (
                <li key={change}>
                  <code>{change}</code>
                </li>
              ))}
            </ul>
          ) : null}
          <p>
            This runs on this computer, as you, with access to what you can access. Install it only if you trust it.
          </p>
          <ReviewList reviews={[preview.review]} />
          {preview.missingRuntime ? (
            <p className="notice notice-error" role="alert">
              {preview.missingRuntime}
            </p>
          ) : null}
          {preview.missing.length > 0 ? (
            <p className="notice notice-error" role="alert">
              Required: {preview.missing.join(', ')}.
            </p>
          ) : null}
        </section>
      ) : null}
      <ErrorNotice message={error} />
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={blocked || busy} onClick={() => void install()}>
          {update ? 'Update and start' : 'Install and start'}
        </button>
      </div>
    </Dialog>
  );
}

function InputField(props: {
  input: InstallInput;
  value: string;
  kept: boolean;
  missing: boolean;
  onChange(value: string): void;
}) {
  const { input, value, kept, missing, onChange } = props;
  const label = `${input.key}${input.required ? ' (required)' : ''}`;
  const hint = [
    input.description,
    `${kindText[input.kind]}${input.secret ? ', secret' : ''}.`,
    kept ? 'The installed entry’s value is kept unless you type a new one.' : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Field label={label} hint={hint} error={missing ? 'Required: fill it in.' : null}>
      {(field) =>
        input.choices ? (
          <select {...field} value={value || input.default || ''} onChange={(event) => onChange(event.target.value)}>
            {input.default === undefined ? <option value="">(choose)</option> : null}
            {input.choices.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...field}
            type={input.secret ? 'password' : 'text'}
            autoComplete="off"
            // Not `required`: the review says what is missing, next to each field, as main finds it.
            aria-required={input.required && !kept && input.default === undefined}
            placeholder={input.default ?? input.placeholder ?? ''}
            value={value}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      }
    </Field>
  );
}

function nonEmpty(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== ''));
}
