// Which models a key may use: all, or the ticked ones, patterns and whole providers.

import type { ModelOption } from '../../../shared/bridge/types.js';
import { TextField } from '../ui/parts.js';
import { textOf, type KeyForm, type SetKeyField } from './key-form.js';

interface AllowedModelsFieldsetProps {
  form: KeyForm;
  set: SetKeyField;
  /** The models to offer as checkboxes. */
  models: ModelOption[];
}

export function AllowedModelsFieldset({ form, set, models }: AllowedModelsFieldsetProps) {
  const toggleModel = (id: string, on: boolean) => {
    const next = new Set(form.chosen);
    if (on) next.add(id);
    else next.delete(id);
    set('chosen', next);
  };

  return (
    <fieldset className="fieldset">
      <legend>Allowed models</legend>
      <label className="checkbox">
        <input type="radio" name="models" checked={!form.restricted} onChange={() => set('restricted', false)} />
        All models
      </label>
      <label className="checkbox">
        <input type="radio" name="models" checked={form.restricted} onChange={() => set('restricted', true)} />
        Only these
      </label>
      {form.restricted ? (
        <div className="model-choices">
          {models.length > 0 ? (
            <div className="checkbox-list" role="group" aria-label="Models">
              {models.map((model) => (
                <label key={model.id} className="checkbox">
                  <input
                    type="checkbox"
                    checked={form.chosen.has(model.id)}
                    onChange={(event) => toggleModel(model.id, event.target.checked)}
                  />
                  <span className="mono">{model.id}</span>
                </label>
              ))}
            </div>
          ) : null}
          <TextField
            label="Other models"
            hint='Comma-separated "provider/model" or "provider/*".'
            spellCheck={false}
            placeholder="openai/*"
            {...textOf(form, set, 'patterns')}
          />
          <TextField
            label="Providers"
            hint="Comma-separated provider ids: all their models."
            spellCheck={false}
            {...textOf(form, set, 'providers')}
          />
        </div>
      ) : null}
    </fieldset>
  );
}
