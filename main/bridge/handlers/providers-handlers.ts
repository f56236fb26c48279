import { ApiError } from '../../../shared/api/index.js';
import type { ProviderRegistry } from '../../providers/index.js';
import type { PriceBook } from '../../providers/pricing/index.js';
import { validateNewProvider, type ProviderSettings } from '../../providers/provider-settings.js';
import type { BridgeHandlerMap } from './handler-types.js';

type ProvidersChannel =
  | 'providers:list'
  | 'providers:add'
  | 'providers:update'
  | 'providers:remove'
  | 'providers:test'
  | 'providers:test-settings'
  | 'providers:models'
  | 'prices:list'
  | 'prices:set'
  | 'prices:unset';

export function providersHandlers(
  providers: ProviderSettings,
  registry: Pick<ProviderRegistry, 'listProviders' | 'testProvider' | 'testUnsaved' | 'providerModels'>,
  prices: PriceBook,
): BridgeHandlerMap<ProvidersChannel> {
  return {
    // Configured, from the environment and found running, as `switchyard providers list`; never a key.
    'providers:list': async () => ({ providers: await registry.listProviders() }),
    'providers:add': async (provider) => ({ provider: await providers.add(provider, { replace: false }) }),
    'providers:update': async ({ id, ...change }) => ({ provider: await providers.update(id, change) }),
    'providers:remove': async ({ id }) => {
      if (!(await providers.remove(id))) {
        throw new ApiError(404, `There is no configured provider "${id}" (one from the environment stays).`);
      }
      return { removed: true };
    },
    'providers:test': ({ id }) => registry.testProvider(id),
    // The form's settings as they would be saved (the same checks), tried without saving them.
    'providers:test-settings': ({ kind, baseUrl, apiKey, keyOf }) =>
      registry.testUnsaved(
        validateNewProvider({ id: keyOf ?? 'unsaved', kind, baseUrl, apiKey: apiKey ?? null }),
        apiKey,
        keyOf,
      ),
    'providers:models': async ({ id }) => ({
      models: (await registry.providerModels(id)).map((model) => ({
        id: model.id,
        name: model.name,
        contextLength: model.context_length ?? null,
        price: prices.priceOf(model.id),
      })),
    }),
    'prices:list': () => ({ prices: prices.list() }),
    'prices:set': async ({ model, ...price }) => ({ price: await prices.set(model, price) }),
    'prices:unset': async ({ model }) => ({ removed: await prices.unset(model) }),
  };
}
