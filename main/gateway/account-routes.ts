// GET {base}/key, {base}/credits and {base}/generation?id= in OpenRouter's shapes (`{data: …}`), for every key.
// The numbers come from main/accounts; decision 004 says what they mean.

import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../shared/api/index.js';
import type { ApiBase } from './api-bases.js';
import { authenticatedKey } from './auth.js';
import type { GatewayAccounts } from './deps.js';

export function registerAccountRoutes(server: FastifyInstance, base: ApiBase, accounts: GatewayAccounts): void {
  server.get(`${base.prefix}/key`, async (request) => ({ data: accounts.keyStatus(authenticatedKey(request).id) }));

  server.get(`${base.prefix}/credits`, async () => ({ data: accounts.credits() }));

  server.get<{ Querystring: { id?: unknown } }>(`${base.prefix}/generation`, async (request) => {
    const id = request.query.id;
    if (typeof id !== 'string' || id === '') {
      throw new ApiError(400, 'The query parameter "id" (a generation id, gen-…) is required.');
    }
    // Another key's generation is a 404 too, so that ids cannot be probed (management keys see all of them).
    const generation = accounts.generation(id, authenticatedKey(request).id);
    if (!generation)
      throw new ApiError(404, `No generation has the id "${id}" (it is recorded when its response ends).`);
    return { data: generation };
  });
}
