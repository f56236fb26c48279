import type { FastifyInstance } from 'fastify';
import type { ProviderRegistry } from '../providers/registry.js';

/** GET /api/v1/models in OpenRouter's shape: `{data: ModelInfo[]}`, ids `<provider>/<model>`. */
export function registerModelsRoute(server: FastifyInstance, providers: ProviderRegistry): void {
  server.get('/api/v1/models', async () => ({ data: await providers.listModels() }));
}
