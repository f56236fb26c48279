// Create a gateway API key (then show its secret once), or change an existing key's rules.

import { useState, type FormEvent } from 'react';
import { limitResets, type ApiKeyDetails, type KeyRules, type LimitReset } from '../../../shared/api/index.js';
import type { ModelOption } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { CopyButton } from '../ui/copy-button.js';
import { Dialog } from '../ui/dialog.js';
import { ErrorNotice, Field } from '../ui/parts.js';

interface KeyDialogProps {
  /** Absent: a new key. */
  apiKey?: ApiKeyDetails;
  models: ModelOption[];
  onClose(): void;
  onSaved(): void;
}

const resetLabels: Record<LimitReset, string> = {
  never: 'Never (a lifetime limit)',
  daily: 'Daily (00:00 UTC)',
  weekly: 'Weekly (Monday 00:00 UTC)',
  monthly: 'Monthly (the 1st, 00:00 UTC)',
};

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** `2026-01-31T12:00` (local) for datetime-local, from ISO. */
function localInputValue(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const offset = date.getTimezoneOffset() * 60_000;
  return new Date(date.getTime() - offset).toISOString().slice(0, 16);
}

export function KeyDialog({ apiKey, models, onClose, onSaved }: KeyDialogProps) {
  const bridge = useBridge();
  const editing = apiKey !== undefined;
  const knownIds = new Set(models.map((model) => model.id));
  const [name, setName] = useState(apiKey?.name ?? '');
  const [limit, setLimit] = useState(apiKey?.limit?.toString() ?? '');
  const [limitReset, setLimitReset] = useState<LimitReset>(apiKey?.limit_reset ?? 'never');
  const [restricted, setRestricted] = useState(apiKey?.allowed_models != null || apiKey?.allowed_providers != null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(
    new Set(apiKey?.allowed_models?.filter((id) => knownIds.has(id)) ?? []),
  );
  const [patterns, setPatterns] = useState(apiKey?.allowed_models?.filter((id) => !knownIds.has(id)).join(', ') ?? '');
  const [providers, setProviders] = useState(apiKey?.allowed_providers?.join(', ') ?? '');
  const [management, setManagement] = useState(apiKey?.management ?? false);
  const [expires, setExpires] = useState(localInputValue(apiKey?.expires_at));
  const [rpm, setRpm] = useState(apiKey?.requests_per_minute?.toString() ?? '');
  const [tpm, setTpm] = useState(apiKey?.tokens_per_minute?.toString() ?? '');
  const [disabled, setDisabled] = useState(apiKey?.disabled ?? false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);

  const rules = (): Partial<KeyRules> => {
    const allowedModels = [...chosen, ...list(patterns)];
    const allowedProviders = list(providers);
    const optionalNumber = (text: string) => (text.trim() === '' ? null : Number(text));
    return {
      limit: optionalNumber(limit),
      limit_reset: limitReset,
      allowed_models: restricted && allowedModels.length > 0 ? allowedModels : null,
      allowed_providers: restricted && allowedProviders.length > 0 ? allowedProviders : null,
      management,
      expires_at: expires ? new Date(expires).toISOString() : null,
      requests_per_minute: optionalNumber(rpm),
      tokens_per_minute: optionalNumber(tpm),
      ...(editing ? { disabled } : {}),
    };
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const change = rules();
    if (restricted && change.allowed_models === null && change.allowed_providers === null) {
      setError('Choose at least one model or provider, or allow all models.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (editing) {
        await bridge.invoke('keys:update', { id: apiKey.id, ...change });
        onSaved();
      } else {
        const answer = await bridge.invoke('keys:create', { name: name.trim(), ...change });
        setCreated({ name: answer.key.name, secret: answer.secret });
        onSaved();
      }
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  if (created) return <SecretView name={created.name} secret={created.secret} onClose={onClose} />;

  const toggleModel = (id: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <Dialog title={editing ? `Edit key ${apiKey.name}` : 'Create an API key'} onClose={onClose} wide>
      <form className="form" onSubmit={(event) => void submit(event)}>
        {editing ? null : (
          <Field label="Name" hint="To recognise the key by: the app or script that will use it.">
            {(props) => (
              <input
                {...props}
                required
                maxLength={100}
                value={name}
                onChange={(event) => setName(event.target.value)}
              />
            )}
          </Field>
        )}
        <div className="form-row">
          <Field label="Spend limit (USD)" hint="Empty: no limit. Reached → 402.">
            {(props) => (
              <input
                {...props}
                type="number"
                min={0}
                step="any"
                inputMode="decimal"
                value={limit}
                onChange={(event) => setLimit(event.target.value)}
              />
            )}
          </Field>
          <Field label="Limit resets">
            {(props) => (
              <select
                {...props}
                value={limitReset}
                onChange={(event) => setLimitReset(event.target.value as LimitReset)}
              >
                {limitResets.map((reset) => (
                  <option key={reset} value={reset}>
                    {resetLabels[reset]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>

        <fieldset className="fieldset">
          <legend>Allowed models</legend>
          <label className="checkbox">
            <input type="radio" name="models" checked={!restricted} onChange={() => setRestricted(false)} />
            All models
          </label>
          <label className="checkbox">
            <input type="radio" name="models" checked={restricted} onChange={() => setRestricted(true)} />
            Only these
          </label>
          {restricted ? (
            <div className="model-choices">
              {models.length > 0 ? (
                <div className="checkbox-list" role="group" aria-label="Models">
                  {models.map((model) => (
                    <label key={model.id} className="checkbox">
                      <input
                        type="checkbox"
                        checked={chosen.has(model.id)}
                        onChange={(event) => toggleModel(model.id, event.target.checked)}
                      />
                      <span className="mono">{model.id}</span>
                    </label>
                  ))}
                </div>
              ) : null}
              <Field label="Other models" hint='Comma-separated "provider/model" or "provider/*".'>
                {(props) => (
                  <input
                    {...props}
                    spellCheck={false}
                    placeholder="openai/*"
                    value={patterns}
                    onChange={(event) => setPatterns(event.target.value)}
                  />
                )}
              </Field>
              <Field label="Providers" hint="Comma-separated provider ids: all their models.">
                {(props) => (
                  <input
                    {...props}
                    spellCheck={false}
                    value={providers}
                    onChange={(event) => setProviders(event.target.value)}
                  />
                )}
              </Field>
            </div>
          ) : null}
        </fieldset>

        <label className="checkbox">
          <input type="checkbox" checked={management} onChange={(event) => setManagement(event.target.checked)} />
          Management key: may list and delete every key through the API (without it, only itself)
        </label>

        <details className="disclosure">
          <summary>Expiry and rate limits</summary>
          <div className="form-row">
            <Field label="Expires" hint="Empty: never. After it: 401.">
              {(props) => (
                <input
                  {...props}
                  type="datetime-local"
                  value={expires}
                  onChange={(event) => setExpires(event.target.value)}
                />
              )}
            </Field>
            <Field label="Requests per minute" hint="Empty: unlimited.">
              {(props) => (
                <input
                  {...props}
                  type="number"
                  min={1}
                  step={1}
                  value={rpm}
                  onChange={(event) => setRpm(event.target.value)}
                />
              )}
            </Field>
            <Field label="Tokens per minute" hint="Empty: unlimited.">
              {(props) => (
                <input
                  {...props}
                  type="number"
                  min={1}
                  step={1}
                  value={tpm}
                  onChange={(event) => setTpm(event.target.value)}
                />
              )}
            </Field>
          </div>
        </details>

        {editing ? (
          <label className="checkbox">
            <input type="checkbox" checked={disabled} onChange={(event) => setDisabled(event.target.checked)} />
            Disabled: refuse every request (401) until enabled again
          </label>
        ) : null}

        <ErrorNotice message={error} />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {editing ? 'Save' : 'Create key'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The secret, this once: nothing keeps it after the dialog closes (the database has only its hash). */
function SecretView({ name, secret, onClose }: { name: string; secret: string; onClose(): void }) {
  return (
    <Dialog title={`Key "${name}" created`} onClose={onClose} wide>
      <p className="notice" role="alert">
        Copy the key now: this is the only time it is shown. Switchyard keeps only a hash of it.
      </p>
      <div className="secret-row">
        <input
          className="mono secret"
          aria-label="New API key"
          readOnly
          value={secret}
          onFocus={(event) => event.target.select()}
        />
        <CopyButton text={secret} what="API key" />
      </div>
      <p className="muted">Use it as the Bearer token of requests to the gateway, e.g. in SWITCHYARD_API_KEY.</p>
      <div className="dialog-actions">
        <button type="button" className="primary" data-autofocus onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
