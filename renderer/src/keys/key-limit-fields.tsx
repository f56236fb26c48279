// A key's spend limit with its reset, and the folded-away expiry and rate limits.

import { limitResets, type LimitReset } from '../../../shared/api/index.js';
import { ChoiceField, Field, UsdField } from '../ui/parts.js';
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
      <UsdField
        label="Spend limit (USD)"
        hint="Empty: no limit. Reached → 402."
        value={form.limit}
        onChange={(value) => set('limit', value)}
      />
      <ChoiceField
        label="Limit resets"
        options={limitResets}
        labels={resetLabels}
        value={form.limitReset}
        onChange={(reset) => set('limitReset', reset)}
      />
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
        <PerMinuteLimit label="Requests per minute" value={form.rpm} onChange={(value) => set('rpm', value)} />
        <PerMinuteLimit label="Tokens per minute" value={form.tpm} onChange={(value) => set('tpm', value)} />
      </div>
    </details>
  );
}

function PerMinuteLimit({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
  return (
    <Field label={label} hint="Empty: unlimited.">
      {(props) => (
        <input
          {...props}
          type="number"
          min={1}
          step={1}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
