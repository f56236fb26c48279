// GET {base}/api-keys and DELETE {base}/api-keys/:key_id (spec 4.2, 4.3). No secrets ever leave here: the
// list holds ApiKeyInfo (id, name, masked label, dates, rules). "A caller can list and delete its own keys" (spec
// 1): a key without the management right lists only itself and may delete only itself, so a leaked key can be
// revoked with nothing but that key; a management key lists and deletes every key.

import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../shared/api/index.js';
import type { ApiBase } from '../http/api-bases.js';
import { authenticatedKey } from '../http/auth.js';
import type { GatewayAccounts, GatewayKeys } from '../deps.js';

export function registerKeysRoutes(
  server: FastifyInstance,
  base: ApiBase,
  keys: GatewayKeys,
  accounts?: Pick<GatewayAccounts, 'mayManageKeys'>,
): void {
  // Without accounts (tests' minimal wiring) every key may do everything, as deps.ts says.
  const mayManageKeys = (keyId: string) => accounts?.mayManageKeys(keyId) ?? true;

  server.get(`${base.prefix}/api-keys`, async (request) => {
    const caller = authenticatedKey(request).id;
    const all = keys.list();
    return { data: mayManageKeys(caller) ? all : all.filter((key) => key.id === caller) };
  });

  server.delete<{ Params: { key_id: string } }>(`${base.prefix}/api-keys/:key_id`, async (request) => {
    const caller = authenticatedKey(request).id;
    const id = request.params.key_id;
    // The same 403 for another key's id and for an unknown one: a key without the right cannot probe which ids exist.
    if (id !== caller && !mayManageKeys(caller)) {
      throw new ApiError(
        403,
        'This API key may delete only itself: deleting other keys needs a management key (switchyard keys update ID --management).',
      );
    }
    if (!(await keys.delete(id))) throw new ApiError(404, `No API key has the id "${id}".`);
    return { data: { id, deleted: true } };
  });
}
