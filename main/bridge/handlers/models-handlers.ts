import { toModelOptions } from '../../chat/index.js';
import type { ProviderRegistry } from '../../providers/index.js';
import type { PriceBook } from '../../providers/pricing/index.js';
import type { BridgeHandlerMap } from './handler-types.js';

/** Every model with what it can do and the price its requests are charged at (null: unpriced). */
export function modelsHandlers(
  registry: Pick<ProviderRegistry, 'listModels'>,
  prices: Pick<PriceBook, 'priceOf'>,
): BridgeHandlerMap<'models:list'> {
  return {
    'models:list': async () => ({
      models: toModelOptions(await registry.listModels()).map((model) => {
        const price = prices.priceOf(model.id);
        return { ...model, price: price ? { input: price.input, output: price.output } : null };
      }),
    }),
  };
}
