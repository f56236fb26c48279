// Which models a key may use: all, or the ticked ones, patterns and whole providers.

import type { ModelOption } from '../../../shared/bridge/types.js';
import { Field } from '../ui/parts.js';
import type { KeyForm, SetKeyField } from './key-form.js';

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
          <Field label="Other models" hint='Comma-separated "provider/model" or "provider/*".'>
            {(props) => (
              <input
                {...props}
                spellCheck={false}
                placeholder="openai/*"
                value={form.patterns}
                onChange={(event) => set('patterns', event.target.value)}
              />
            )}
          </Field>
          <Field label="Providers" hint="Comma-separated provider ids: all their models.">
            {(props) => (
              <input
                {...props}
                spellCheck={false}
                value={form.providers}
                onChange={(event) => set('providers', event.target.value)}
              />
            )}
          </Field>
        </div>
      ) : null}
    </fieldset>
  );
}
