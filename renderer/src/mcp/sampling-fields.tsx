// The server form's Sampling settings (decision 035): which of the configured providers' models answers the
// server's sampling requests when the caller cannot answer them itself, and whether the person approves each one.

import { useCallback } from 'react';
import type { ModelOption } from '../../../shared/bridge/types.js';
import { samplingApprovals, type SamplingApproval } from '../../../shared/mcp/sampling.js';
import { useBridge } from '../bridge/bridge-context.js';
import { ChoiceField, Field } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';

const approvalLabels: Record<SamplingApproval, string> = {
  ask: 'Ask me each time',
  always: 'Always answer',
  never: 'Never answer',
};

interface SamplingFieldsProps {
  model: string;
  approval: SamplingApproval;
  error?: string;
  onModelChange(model: string): void;
  onApprovalChange(approval: SamplingApproval): void;
}

export function SamplingFields({ model, approval, error, onModelChange, onApprovalChange }: SamplingFieldsProps) {
  const bridge = useBridge();
  const models = useLoad(useCallback(async () => (await bridge.invoke('models:list')).models, [bridge]));
  const byProvider = groupByProvider(models.data ?? []);
  // A model no provider lists now (an alias, a provider that is down) stays choosable as written.
  const listed = (models.data ?? []).some((option) => option.id === model);

  return (
    <fieldset className="fieldset">
      <legend>Sampling</legend>
      <p className="field-hint">
        When this server asks for a model during a tool call and the caller cannot answer, Switchyard answers with this
        model through its gateway (counted in usage as “server (MCP sampling)”).
      </p>
      <div className="form-row">
        <Field
          label="Model"
          error={error}
          hint={models.error ? `The model list could not be loaded: ${models.error}` : undefined}
        >
          {(props) => (
            <select {...props} value={model} onChange={(event) => onModelChange(event.target.value)}>
              <option value="">None: refuse sampling requests</option>
              {model && !listed ? <option value={model}>{model}</option> : null}
              {[...byProvider].map(([provider, options]) => (
                <optgroup key={provider} label={provider}>
                  {options.map((option) => (
                    <option key={option.id} value={option.id}>
                      {option.id}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          )}
        </Field>
        <ChoiceField
          label="Approval"
          options={samplingApprovals}
          labels={approvalLabels}
          value={approval}
          onChange={onApprovalChange}
        />
      </div>
    </fieldset>
  );
}

function groupByProvider(models: ModelOption[]): Map<string, ModelOption[]> {
  const groups = new Map<string, ModelOption[]>();
  for (const option of models) groups.set(option.provider, [...(groups.get(option.provider) ?? []), option]);
  return groups;
}
