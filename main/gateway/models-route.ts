import type { FastifyInstance } from 'fastify';
import type { ProviderRegistry } from '../providers/registry.js';
import type { ApiBase } from './api-bases.js';
import { authenticatedKey } from './auth.js';
import type { GatewayAccounts } from './deps.js';

/** GET {base}/models in OpenRouter's shape: `{data: ModelInfo[]}`, ids `<provider>/<model>`; only the key's. */
export function registerModelsRoute(
  server: FastifyInstance,
  base: ApiBase,
  providers: ProviderRegistry,
  accounts?: Pick<GatewayAccounts, 'allowsModel'>,
): void {
  server.get(`${base.prefix}/models`, async (request) => {
    const models = await providers.listModels();
    if (!accounts) return { data: models };
    const keyId = authenticatedKey(request).id;
    return { data: models.filter((model) => accounts.allowsModel(keyId, model.id)) };
  });
}
