// Providers: add, edit and remove them, test the connection, see their models with prices, and set prices; model
// aliases, the names tools send, pointed at any provider's model.

import { useCallback, useEffect, useState } from 'react';
import type { ModelAliasInfo, ModelPriceInfo, ProviderInfo } from '../../../shared/api/index.js';
import { useBridge } from '../bridge/bridge-context.js';
import { EmptyState, Loaded, Screen } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';
import { AliasDialog } from './alias-dialog.js';
import { AliasesSection } from './aliases-section.js';
import { PriceDialog } from './price-dialog.js';
import { PricesSection } from './prices-section.js';
import { ProviderCard } from './provider-card.js';
import { ProviderDialog } from './provider-dialog.js';

type Editing = { type: 'add' } | { type: 'edit'; provider: ProviderInfo } | null;
export type PriceEditing = { model?: string; current?: ModelPriceInfo | null } | null;
/** `{}`: a new alias. */
type AliasEditing = { alias?: ModelAliasInfo } | null;

/** A dialog's close (`close(null)`) and its save: closed, then `changed` (the list it changed reloads). */
function closedThen(close: (nothing: null) => void, changed: () => void) {
  return {
    onClose: () => close(null),
    onSaved: () => {
      close(null);
      changed();
    },
  };
}

const healthRefreshMs = 5_000;

export function ProvidersScreen() {
  const bridge = useBridge();
  const providers = useLoad(useCallback(async () => (await bridge.invoke('providers:list')).providers, [bridge]));
  const prices = useLoad(useCallback(async () => (await bridge.invoke('prices:list')).prices, [bridge]));
  const aliases = useLoad(useCallback(async () => (await bridge.invoke('aliases:list')).aliases, [bridge]));
  const [editing, setEditing] = useState<Editing>(null);
  const [pricing, setPricing] = useState<PriceEditing>(null);
  const [aliasing, setAliasing] = useState<AliasEditing>(null);
  // Bumped when prices change, so that open model lists show the new ones.
  const [pricesVersion, setPricesVersion] = useState(0);

  // A cooldown ends on its own time: while a model cools down or waits for its trial, the list is read again.
  const cooling = providers.data?.some((provider) => (provider.targets ?? []).length > 0) ?? false;
  const reloadProviders = providers.reload;
  useEffect(() => {
    if (!cooling) return;
    const timer = setInterval(() => void reloadProviders(), healthRefreshMs);
    return () => clearInterval(timer);
  }, [cooling, reloadProviders]);

  const pricesChanged = () => {
    void prices.reload();
    setPricesVersion((version) => version + 1);
  };

  return (
    <Screen
      title="Providers"
      actions={
        <button type="button" className="primary" onClick={() => setEditing({ type: 'add' })}>
          Add provider
        </button>
      }
    >
      <Loaded
        loaded={providers}
        what="providers"
        empty={
          <EmptyState title="No providers yet">
            <p>
              Add the LLM providers your models come from: OpenAI, Anthropic, Google, OpenRouter, or a local server such
              as Ollama. Keys in the environment (OPENAI_API_KEY…) and local servers found running show up here by
              themselves.
            </p>
            <button type="button" className="primary" onClick={() => setEditing({ type: 'add' })}>
              Add a provider
            </button>
          </EmptyState>
        }
      >
        {(list) => (
          <ul className="card-list" aria-label="Providers">
            {list.map((provider) => (
              <ProviderCard
                // Settings saved anew start a fresh card: a test of the old ones says nothing about them.
                key={[provider.id, provider.kind, provider.base_url, provider.has_api_key, provider.api_key_tail].join(
                  ' ',
                )}
                provider={provider}
                pricesVersion={pricesVersion}
                onEdit={() => setEditing({ type: 'edit', provider })}
                onRemoved={() => void providers.reload()}
                onPrice={(model, current) => setPricing({ model, current })}
              />
            ))}
          </ul>
        )}
      </Loaded>

      <AliasesSection
        aliases={aliases.data}
        error={aliases.error}
        onAdd={() => setAliasing({})}
        onEdit={(alias) => setAliasing({ alias })}
        onChanged={() => void aliases.reload()}
      />

      <PricesSection
        prices={prices.data}
        error={prices.error}
        onAdd={() => setPricing({})}
        onEdit={(price) => setPricing({ model: price.model, current: price })}
        onChanged={pricesChanged}
      />

      {editing ? (
        <ProviderDialog
          provider={editing.type === 'edit' ? editing.provider : undefined}
          {...closedThen(setEditing, () => void providers.reload())}
        />
      ) : null}
      {aliasing ? (
        <AliasDialog alias={aliasing.alias} {...closedThen(setAliasing, () => void aliases.reload())} />
      ) : null}
      {pricing ? (
        <PriceDialog model={pricing.model} current={pricing.current} {...closedThen(setPricing, pricesChanged)} />
      ) : null}
    </Screen>
  );
}
