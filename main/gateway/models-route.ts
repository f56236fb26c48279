import type { FastifyInstance } from 'fastify';
import type { ProviderRegistry } from '../providers/registry.js';
import { authenticatedKey } from './auth.js';
import type { GatewayAccounts } from './deps.js';

/** GET /api/v1/models in OpenRouter's shape: `{data: ModelInfo[]}`, ids `<provider>/<model>`; only the key's. */
export function registerModelsRoute(
  server: FastifyInstance,
  providers: ProviderRegistry,
  accounts?: Pick<GatewayAccounts, 'allowsModel'>,
): void {
  server.get('/api/v1/models', async (request) => {
    const models = await providers.listModels();
    if (!accounts) return { data: models };
    const keyId = authenticatedKey(request).id;
    return { data: models.filter((model) => accounts.allowsModel(keyId, model.id)) };
  });
}
