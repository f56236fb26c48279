import { ApiError } from '../../../shared/api/index.js';
import type { ProviderRegistry } from '../../providers/index.js';
import type { PriceBook } from '../../providers/pricing/index.js';
import { isProviderId, validateNewProvider, type ProviderSettings } from '../../providers/provider-settings.js';
import { withTargetHealth, type TargetHealth } from '../../providers/target-health.js';
import type { SecretStore } from '../../secrets/index.js';
import type { BridgeHandlerMap } from './handler-types.js';

type ProvidersChannel =
  | 'providers:list'
  | 'providers:add'
  | 'providers:update'
  | 'providers:remove'
  | 'providers:test'
  | 'providers:test-settings'
  | 'providers:models'
  | 'providers:key-store'
  | 'prices:list'
  | 'prices:set'
  | 'prices:unset';

export function providersHandlers(
  providers: ProviderSettings,
  registry: Pick<ProviderRegistry, 'listProviders' | 'testProvider' | 'testUnsaved' | 'providerModels'>,
  prices: PriceBook,
  secrets: () => Promise<SecretStore>,
  targetHealth?: Pick<TargetHealth, 'states'>,
): BridgeHandlerMap<ProvidersChannel> {
  return {
    // Configured, from the environment and found running, as `switchyard providers list` (with each target's
    // health); never a key.
    'providers:list': async () => {
      const listed = await registry.listProviders();
      return { providers: targetHealth ? withTargetHealth(listed, targetHealth.states()) : listed };
    },
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
    // Its messages name the provider by the id typed, once it is one.
    'providers:test-settings': ({ kind, baseUrl, apiKey, keyOf, id }) =>
      registry.testUnsaved(
        validateNewProvider({
          id: keyOf ?? (id !== undefined && isProviderId(id) ? id : 'new-provider'),
          kind,
          baseUrl,
          apiKey: apiKey ?? null,
        }),
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
    'providers:key-store': async () => {
      const store = await secrets();
      return { kind: store.kind, location: store.location };
    },
    'prices:list': () => ({ prices: prices.list() }),
    'prices:set': async ({ model, ...price }) => ({ price: await prices.set(model, price) }),
    'prices:unset': async ({ model }) => ({ removed: await prices.unset(model) }),
  };
}
