// Create a gateway API key (then show its secret once), or change an existing key's rules.

import { useState, type FormEvent } from 'react';
import type { ApiKeyDetails } from '../../../shared/api/index.js';
import type { ModelOption } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog, FormActions } from '../ui/dialog.js';
import { TextField } from '../ui/parts.js';
import { AllowedModelsFieldset } from './allowed-models-fieldset.js';
import { rulesProblem, textOf, toKeyForm, toKeyRules, type KeyForm, type SetKeyField } from './key-form.js';
import { ExpiryAndRateLimits, SpendLimitFields } from './key-limit-fields.js';
import { SecretView } from './secret-view.js';

interface KeyDialogProps {
  /** Absent: a new key. */
  apiKey?: ApiKeyDetails;
  models: ModelOption[];
  onClose(): void;
  onSaved(): void;
}

export function KeyDialog({ apiKey, models, onClose, onSaved }: KeyDialogProps) {
  const bridge = useBridge();
  const editing = apiKey !== undefined;
  const [form, setForm] = useState<KeyForm>(() => toKeyForm(apiKey, new Set(models.map((model) => model.id))));
  const set: SetKeyField = (field, value) => setForm((current) => ({ ...current, [field]: value }));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const change = toKeyRules(form, editing);
    const problem = rulesProblem(form, change);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (editing) {
        const name = form.name.trim();
        await bridge.invoke('keys:update', { id: apiKey.id, ...(name !== apiKey.name ? { name } : {}), ...change });
        onSaved();
      } else {
        const answer = await bridge.invoke('keys:create', { name: form.name.trim(), ...change });
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

  return (
    <Dialog title={editing ? `Edit key ${apiKey.name}` : 'Create an API key'} onClose={onClose} wide>
      <form className="form" onSubmit={(event) => void submit(event)}>
        <TextField
          label="Name"
          hint="To recognise the key by: the app or script that will use it."
          required
          maxLength={100}
          {...textOf(form, set, 'name')}
        />
        <SpendLimitFields form={form} set={set} />
        <AllowedModelsFieldset form={form} set={set} models={models} />

        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.management}
            onChange={(event) => set('management', event.target.checked)}
          />
          Management key: may list and delete every key through the API (without it, only itself)
        </label>

        <label className="checkbox">
          <input type="checkbox" checked={form.metrics} onChange={(event) => set('metrics', event.target.checked)} />
          Metrics: may read the gateway&apos;s Prometheus metrics at /metrics (a management key always may)
        </label>

        <ExpiryAndRateLimits form={form} set={set} />

        <TextField
          label="MCP hub"
          hint="The MCP servers this key may use at /mcp: server names or server__tool, comma-separated, * for every enabled server. Empty: no access."
          placeholder="no access"
          {...textOf(form, set, 'mcp')}
        />

        {editing ? (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={form.disabled}
              onChange={(event) => set('disabled', event.target.checked)}
            />
            Disabled: refuse every request (401) until enabled again
          </label>
        ) : null}

        <FormActions submitLabel={editing ? 'Save' : 'Create key'} onCancel={onClose} error={error} busy={busy} />
      </form>
    </Dialog>
  );
}
