// Add an alias, or point one at another model: a name tools send as `model` and the `<provider>/<model>` it stands
// for, picked from the providers' models or typed (a model a provider does not list, or one not running yet). More
// models make a model group, with the strategy that picks among them and, for `weighted`, their weights.

import { useCallback, useId, useState, type FormEvent } from 'react';
import {
  aliasNameProblem,
  aliasStrategies,
  maxAliasTargets,
  type AliasStrategy,
  type ModelAliasInfo,
} from '../../../shared/api/index.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog, FormActions } from '../ui/dialog.js';
import { ChoiceField, TextField } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';

const strategyLabels: Record<AliasStrategy, string> = {
  ordered: 'In order: the first that answers',
  weighted: 'Weighted: spread by weight',
  'least-busy': 'Least busy: fewest requests in flight',
  latency: 'Latency: fastest first token lately',
  cost: 'Cost: cheapest known price',
};

const strategyField = {
  label: 'Strategy',
  hint: 'How the group picks a model; the others answer when it fails or cools down.',
  options: aliasStrategies,
  labels: strategyLabels,
};

/** The weights as typed ("3, 1"), or the message saying what is wrong. */
function parseWeights(text: string): number[] | string {
  const weights = text.split(',').map((item) => Number(item.trim()));
  return weights.every((weight) => Number.isFinite(weight) && weight > 0)
    ? weights
    : 'Weights are positive numbers separated by commas, one per model, e.g. 3, 1.';
}

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
  const [targets, setTargets] = useState<string[]>(alias?.targets ?? ['']);
  const [strategy, setStrategy] = useState<AliasStrategy>(alias?.strategy ?? 'ordered');
  const [weights, setWeights] = useState(alias?.weights?.join(', ') ?? '');
  const setTarget = (index: number, value: string) =>
    setTargets((list) => list.map((target, at) => (at === index ? value : target)));
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const problem = aliasNameProblem(name.trim());
    setNameError(problem);
    if (problem) return;
    const chosen = targets.map((target) => target.trim()).filter((target) => target !== '');
    const grouped = chosen.length > 1;
    const parsedWeights = grouped && strategy === 'weighted' ? parseWeights(weights) : null;
    if (typeof parsedWeights === 'string') return setError(parsedWeights);
    setBusy(true);
    try {
      const saved = await bridge.invoke(
        'aliases:set',
        grouped
          ? { name: name.trim(), target: chosen[0]!, targets: chosen, strategy, weights: parsedWeights }
          : { name: name.trim(), target: chosen[0] ?? '' },
      );
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
        {targets.map((target, index) => (
          <div className="alias-target" key={index}>
            <TextField
              label={index === 0 ? 'Model' : `Model ${index + 1}`}
              hint={
                index > 0
                  ? undefined
                  : models.error
                    ? `Type it as <provider>/<model>: the model list could not be loaded (${models.error}).`
                    : 'Pick one of your providers’ models, or type <provider>/<model>. Add more to make a model group.'
              }
              required={index === 0}
              spellCheck={false}
              autoComplete="off"
              list={modelsListId}
              placeholder="provider/model"
              value={target}
              onChange={(value) => setTarget(index, value)}
            />
            {index > 0 ? (
              <button
                type="button"
                aria-label={`Remove model ${index + 1}`}
                onClick={() => setTargets((list) => list.filter((_, at) => at !== index))}
              >
                Remove
              </button>
            ) : null}
          </div>
        ))}
        {targets.length < maxAliasTargets ? (
          <button type="button" className="alias-add-target" onClick={() => setTargets((list) => [...list, ''])}>
            Add another model
          </button>
        ) : null}
        {targets.length > 1 ? <ChoiceField {...strategyField} value={strategy} onChange={setStrategy} /> : null}
        {targets.length > 1 && strategy === 'weighted' ? (
          <TextField
            label="Weights"
            hint="One positive number per model, in their order, e.g. 3, 1."
            required
            spellCheck={false}
            autoComplete="off"
            value={weights}
            onChange={setWeights}
          />
        ) : null}
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
