// Your price overrides, and the bundled prices they replace.

import type { ModelPriceInfo } from '../../../shared/api/index.js';
import { useBridge } from '../bridge/bridge-context.js';
import { perMillion } from '../ui/format.js';
import { Table } from '../ui/table.js';
import { ListSection, useRemoval, type ListHandlers, type ListWords } from './list-section.js';

const words: ListWords = {
  title: 'Model prices',
  addLabel: 'Set a price',
  purpose:
    'USD per million tokens. Your prices win over the bundled ones; a model with neither is recorded as unpriced.',
};

interface PricesSectionProps extends ListHandlers<ModelPriceInfo> {
  prices: ModelPriceInfo[] | undefined;
}

export function PricesSection({ prices, error, onAdd, onEdit, onChanged }: PricesSectionProps) {
  const bridge = useBridge();
  const removal = useRemoval((model) => bridge.invoke('prices:unset', { model }), onChanged);
  const overrides = prices?.filter((price) => price.source === 'override') ?? [];
  const builtins = prices?.filter((price) => price.source === 'builtin') ?? [];

  return (
    <ListSection {...words} onAdd={onAdd} error={error ?? removal.error}>
      {overrides.length === 0 ? (
        <p className="muted">You have not set any prices.</p>
      ) : (
        <PriceTable label="Your prices" prices={overrides} onEdit={onEdit} onUnset={removal.remove} />
      )}
      {builtins.length > 0 ? (
        <details className="disclosure">
          <summary>Bundled prices ({builtins.length})</summary>
          <PriceTable label="Bundled prices" prices={builtins} onEdit={onEdit} />
        </details>
      ) : null}
    </ListSection>
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
