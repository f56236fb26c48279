import type { ModelOption } from '../../../shared/bridge/types.js';

interface ModelPickerProps {
  models: ModelOption[] | null;
  value: string | null;
  onChange(model: string): void;
}

/** The configured providers' models, grouped by provider. */
export function ModelPicker({ models, value, onChange }: ModelPickerProps) {
  const providers = [...new Set((models ?? []).map((model) => model.provider))];
  const known = models?.some((model) => model.id === value) ?? false;
  return (
    <select
      className="model-picker"
      aria-label="Model"
      value={value ?? ''}
      disabled={!models || models.length === 0}
      onChange={(event) => onChange(event.target.value)}
    >
      {!value ? (
        <option value="">{models?.length === 0 ? 'No models: add a provider' : 'Choose a model'}</option>
      ) : null}
      {value && !known ? <option value={value}>{value}</option> : null}
      {providers.map((provider) => (
        <optgroup key={provider} label={provider}>
          {(models ?? [])
            .filter((model) => model.provider === provider)
            .map((model) => (
              <option key={model.id} value={model.id}>
                {model.name}
                {model.acceptsImages ? ' (images)' : ''}
              </option>
            ))}
        </optgroup>
      ))}
    </select>
  );
}
