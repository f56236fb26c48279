import { toModelOptions } from '../../chat/index.js';
import type { ProviderRegistry } from '../../providers/index.js';
import type { BridgeHandlerMap } from './handler-types.js';

export function modelsHandlers(registry: Pick<ProviderRegistry, 'listModels'>): BridgeHandlerMap<'models:list'> {
  return { 'models:list': async () => ({ models: toModelOptions(await registry.listModels()) }) };
}
