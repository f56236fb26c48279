// GET {base}/key (and /auth/key, its old name), {base}/credits and {base}/generation?id= in OpenRouter's shapes
// (`{data: …}`, openrouter/account-shapes.ts), for every key. The numbers come from main/accounts; decision 004 says
// what they mean, decision 012 how "unknown" and "no limit" are spelled where OpenRouter's schemas want numbers.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../shared/api/index.js';
import type { ApiBase } from '../http/api-bases.js';
import { authenticatedKey } from '../http/auth.js';
import type { GatewayAccounts } from '../deps.js';
import { toOpenRouterCredits, toOpenRouterGeneration, toOpenRouterKeyStatus } from './openrouter/account-shapes.js';

export function registerAccountRoutes(server: FastifyInstance, base: ApiBase, accounts: GatewayAccounts): void {
  const currentKey = async (request: FastifyRequest) => ({
    data: toOpenRouterKeyStatus(accounts.keyStatus(authenticatedKey(request).id)),
  });
  server.get(`${base.prefix}/key`, currentKey);
  server.get(`${base.prefix}/auth/key`, currentKey);

  server.get(`${base.prefix}/credits`, async () => ({ data: toOpenRouterCredits(accounts.credits()) }));

  server.get<{ Querystring: { id?: unknown } }>(`${base.prefix}/generation`, async (request) => {
    const id = request.query.id;
    if (typeof id !== 'string' || id === '') {
      throw new ApiError(400, 'The query parameter "id" (a generation id, gen-…) is required.');
    }
    // Another key's generation is a 404 too, so that ids cannot be probed (management keys see all of them).
    const generation = await accounts.generation(id, authenticatedKey(request).id);
    if (!generation)
      throw new ApiError(404, `No generation has the id "${id}" (it is recorded when its response ends).`);
    return { data: toOpenRouterGeneration(generation) };
  });
}
