// Add an alias, or point one at another model: a name tools send as `model` and the `<provider>/<model>` it stands
// for, picked from the providers' models or typed (a model a provider does not list, or one not running yet).

import { useCallback, useId, useState, type FormEvent } from 'react';
import { aliasNameProblem, type ModelAliasInfo } from '../../../shared/api/index.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog, FormActions } from '../ui/dialog.js';
import { TextField } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';

interface AliasDialogProps {
  /** Absent: a new alias. */
  alias?: ModelAliasInfo;
  onClose(): void;
  onSaved(alias: ModelAliasInfo): void;
}

export function AliasDialog({ alias, onClose, onSaved }: AliasDialogProps) {
  const bridge = useBridge();
  const editing = alias !== undefined;
  const models = useLoad(useCallback(async () => (await bridge.invoke('models:list')).models, [bridge]));
  const modelsListId = useId();
  const [name, setName] = useState(alias?.name ?? '');
  const [target, setTarget] = useState(alias?.target ?? '');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const problem = aliasNameProblem(name.trim());
    setNameError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const saved = await bridge.invoke('aliases:set', { name: name.trim(), target: target.trim() });
      onSaved(saved.alias);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={editing ? `Alias ${alias.name}` : 'Add a model alias'}
      onClose={onClose}
      description="Requests that name the alias go to its model, on every API the gateway speaks; the next request already uses a change."
    >
      <form className="form" onSubmit={(event) => void submit(event)}>
        {editing ? null : (
          <TextField
            label="Alias"
            error={nameError}
            hint="The model name your tool sends, e.g. claude-sonnet-4-5 or gpt-5-codex."
            required
            spellCheck={false}
            autoComplete="off"
            value={name}
            onChange={setName}
          />
        )}
        <TextField
          label="Model"
          hint={
            models.error
              ? `Type it as <provider>/<model>: the model list could not be loaded (${models.error}).`
              : 'Pick one of your providers’ models, or type <provider>/<model>.'
          }
          required
          spellCheck={false}
          autoComplete="off"
          list={modelsListId}
          placeholder="provider/model"
          value={target}
          onChange={setTarget}
        />
        <datalist id={modelsListId}>
          {(models.data ?? []).map((model) => (
            <option key={model.id} value={model.id}>
              {model.name}
            </option>
          ))}
        </datalist>
        <FormActions submitLabel="Save alias" onCancel={onClose} error={error} busy={busy} />
      </form>
    </Dialog>
  );
}
