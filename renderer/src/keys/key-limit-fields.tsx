// A key's spend limit with its reset, and the folded-away expiry and rate limits.

import { limitResets, type LimitReset } from '../../../shared/api/index.js';
import { Field } from '../ui/parts.js';
import type { KeyForm, SetKeyField } from './key-form.js';

const resetLabels: Record<LimitReset, string> = {
  never: 'Never (a lifetime limit)',
  daily: 'Daily (00:00 UTC)',
  weekly: 'Weekly (Monday 00:00 UTC)',
  monthly: 'Monthly (the 1st, 00:00 UTC)',
};

interface KeyFieldsProps {
  form: KeyForm;
  set: SetKeyField;
}

export function SpendLimitFields({ form, set }: KeyFieldsProps) {
  return (
    <div className="form-row">
      <Field label="Spend limit (USD)" hint="Empty: no limit. Reached → 402.">
        {(props) => (
          <input
            {...props}
            type="number"
            min={0}
            step="any"
            inputMode="decimal"
            value={form.limit}
            onChange={(event) => set('limit', event.target.value)}
          />
        )}
      </Field>
      <Field label="Limit resets">
        {(props) => (
          <select
            {...props}
            value={form.limitReset}
            onChange={(event) => set('limitReset', event.target.value as LimitReset)}
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
  );
}

export function ExpiryAndRateLimits({ form, set }: KeyFieldsProps) {
  return (
    <details className="disclosure">
      <summary>Expiry and rate limits</summary>
      <div className="form-row">
        <Field label="Expires" hint="Empty: never. After it: 401.">
          {(props) => (
            <input
              {...props}
              type="datetime-local"
              value={form.expires}
              onChange={(event) => set('expires', event.target.value)}
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
              value={form.rpm}
              onChange={(event) => set('rpm', event.target.value)}
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
              value={form.tpm}
              onChange={(event) => set('tpm', event.target.value)}
            />
          )}
        </Field>
      </div>
    </details>
  );
}
