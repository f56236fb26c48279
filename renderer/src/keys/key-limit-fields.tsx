// A key's spend limit with its reset, and the folded-away expiry and rate limits.

import { limitResets, type LimitReset } from '../../../shared/api/index.js';
import { ChoiceField, TextField, UsdField } from '../ui/parts.js';
import { textOf, type KeyForm, type SetKeyField } from './key-form.js';

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
      <UsdField label="Spend limit (USD)" hint="Empty: no limit. Reached → 402." {...textOf(form, set, 'limit')} />
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
        <TextField
          label="Expires"
          hint="Empty: never. After it: 401."
          type="datetime-local"
          {...textOf(form, set, 'expires')}
        />
        <PerMinuteLimit label="Requests per minute" {...textOf(form, set, 'rpm')} />
        <PerMinuteLimit label="Tokens per minute" {...textOf(form, set, 'tpm')} />
      </div>
    </details>
  );
}

function PerMinuteLimit({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
  return (
    <TextField
      label={label}
      hint="Empty: unlimited."
      type="number"
      min={1}
      step={1}
      value={value}
      onChange={onChange}
    />
  );
}
