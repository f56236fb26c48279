// Your price overrides, and the bundled prices they replace.

import { useState } from 'react';
import type { ModelPriceInfo } from '../../../shared/api/index.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { perMillion } from '../ui/format.js';
import { ErrorNotice } from '../ui/parts.js';
import { Table } from '../ui/table.js';

interface PricesSectionProps {
  prices: ModelPriceInfo[] | undefined;
  error: string | null;
  onAdd(): void;
  onEdit(price: ModelPriceInfo): void;
  onChanged(): void;
}

export function PricesSection({ prices, error, onAdd, onEdit, onChanged }: PricesSectionProps) {
  const bridge = useBridge();
  const [unsetError, setUnsetError] = useState<string | null>(null);
  const overrides = prices?.filter((price) => price.source === 'override') ?? [];
  const builtins = prices?.filter((price) => price.source === 'builtin') ?? [];

  const unset = async (model: string) => {
    try {
      await bridge.invoke('prices:unset', { model });
      setUnsetError(null);
      onChanged();
    } catch (failure) {
      setUnsetError(errorMessage(failure));
    }
  };

  return (
    <section className="section" aria-labelledby="prices-title">
      <div className="section-header">
        <h2 id="prices-title">Model prices</h2>
        <button type="button" onClick={onAdd}>
          Set a price
        </button>
      </div>
      <p className="muted">
        USD per million tokens. Your prices win over the bundled ones; a model with neither is recorded as unpriced.
      </p>
      <ErrorNotice message={error ?? unsetError} />
      {overrides.length === 0 ? (
        <p className="muted">You have not set any prices.</p>
      ) : (
        <PriceTable label="Your prices" prices={overrides} onEdit={onEdit} onUnset={(model) => void unset(model)} />
      )}
      {builtins.length > 0 ? (
        <details className="disclosure">
          <summary>Bundled prices ({builtins.length})</summary>
          <PriceTable label="Bundled prices" prices={builtins} onEdit={onEdit} />
        </details>
      ) : null}
    </section>
  );
}

function PriceTable({
  label,
  prices,
  onEdit,
  onUnset,
}: {
  label: string;
  prices: ModelPriceInfo[];
  onEdit(price: ModelPriceInfo): void;
  onUnset?(model: string): void;
}) {
  return (
    <Table label={label} columns={['Model', 'Input', 'Output', 'Cache read', 'Cache write']} actions="Actions">
      {prices.map((price) => (
        <tr key={price.model}>
          <td className="mono">{price.model}</td>
          <td>{perMillion(price.input)}</td>
          <td>{perMillion(price.output)}</td>
          <td>{perMillion(price.cache_read)}</td>
          <td>{perMillion(price.cache_write)}</td>
          <td className="row-actions">
            <button type="button" aria-label={`Edit the price of ${price.model}`} onClick={() => onEdit(price)}>
              {onUnset ? 'Edit' : 'Override'}
            </button>
            {onUnset ? (
              <button
                type="button"
                className="danger"
                aria-label={`Remove your price for ${price.model}`}
                onClick={() => onUnset(price.model)}
              >
                Remove
              </button>
            ) : null}
          </td>
        </tr>
      ))}
    </Table>
  );
}
