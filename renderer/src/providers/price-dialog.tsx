// Your price for a model, in USD per million tokens, as `switchyard prices set` takes it.

import { useState, type FormEvent } from 'react';
import type { ModelPriceInfo } from '../../../shared/api/index.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog, FormActions } from '../ui/dialog.js';
import { TextField, UsdField } from '../ui/parts.js';

interface PriceDialogProps {
  /** The model to price (an upstream name such as gpt-4o, or a full id such as fake/echo-1). */
  model?: string;
  /** The price it has now, to start from. */
  current?: ModelPriceInfo | null;
  onClose(): void;
  onSaved(price: ModelPriceInfo): void;
}

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

export function PriceDialog({ model: initialModel, current, onClose, onSaved }: PriceDialogProps) {
  const bridge = useBridge();
  const [model, setModel] = useState(initialModel ?? '');
  const [input, setInput] = useState(text(current?.input));
  const [output, setOutput] = useState(text(current?.output));
  const [cacheRead, setCacheRead] = useState(text(current?.cache_read));
  const [cacheWrite, setCacheWrite] = useState(text(current?.cache_write));
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const optional = (value: string) => (value.trim() === '' ? null : Number(value));
    try {
      const { price } = await bridge.invoke('prices:set', {
        model: model.trim(),
        input: Number(input),
        output: Number(output),
        cacheRead: optional(cacheRead),
        cacheWrite: optional(cacheWrite),
      });
      onSaved(price);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <Dialog
      title={initialModel ? `Price of ${initialModel}` : 'Set a model price'}
      onClose={onClose}
      description="USD per million tokens. Costs of new requests use it at once; your price wins over the bundled one."
    >
      <form className="form" onSubmit={(event) => void submit(event)}>
        {initialModel ? null : (
          <TextField
            label="Model"
            hint="An upstream name (gpt-4o: every provider) or a full id (myazure/gpt-4o: only that one)."
            required
            spellCheck={false}
            value={model}
            onChange={setModel}
          />
        )}
        <div className="form-row">
          <UsdField label="Input" value={input} onChange={setInput} required />
          <UsdField label="Output" value={output} onChange={setOutput} required />
        </div>
        <div className="form-row">
          <UsdField label="Cache read" hint="Empty: the input price." value={cacheRead} onChange={setCacheRead} />
          <UsdField label="Cache write" hint="Empty: the input price." value={cacheWrite} onChange={setCacheWrite} />
        </div>
        <FormActions submitLabel="Save price" onCancel={onClose} error={error} />
      </form>
    </Dialog>
  );
}
