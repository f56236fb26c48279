// GET /api/v1/api-keys and DELETE /api/v1/api-keys/:key_id (spec 4.2, 4.3). No secrets ever leave here: the
// list holds ApiKeyInfo (id, name, masked label, dates, rules). Both need a management key (decision 004).

import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../shared/api/index.js';
import { authenticatedKey } from './auth.js';
import type { GatewayAccounts, GatewayKeys } from './deps.js';

export function registerKeysRoutes(
  server: FastifyInstance,
  keys: GatewayKeys,
  accounts?: Pick<GatewayAccounts, 'requireManagement'>,
): void {
  server.get('/api/v1/api-keys', async (request) => {
    accounts?.requireManagement(authenticatedKey(request).id);
    return { data: keys.list() };
  });

  server.delete<{ Params: { key_id: string } }>('/api/v1/api-keys/:key_id', async (request) => {
    accounts?.requireManagement(authenticatedKey(request).id);
    const id = request.params.key_id;
    if (!keys.delete(id)) throw new ApiError(404, `No API key has the id "${id}".`);
    return { data: { id, deleted: true } };
  });
}
