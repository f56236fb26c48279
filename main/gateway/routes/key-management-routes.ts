// OpenRouter's key management at {base}/keys, beside the specification's /api-keys (keys-routes.ts), for management
// keys only (anyone else gets 403): list, get, create, update and delete, with OpenRouter's records
// (openrouter/account-shapes.ts; `hash` is the key's id). A key takes OpenRouter's fields (name, limit, limit_reset,
// expires_at, disabled, include_byok_in_limit) and Switchyard's own rules (allowed_models, management, …).

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, type KeyRulesChange } from '../../../shared/api/index.js';
import type { ApiBase } from '../http/api-bases.js';
import { authenticatedKey } from '../http/auth.js';
import type { GatewayAccounts, GatewayKeys } from '../deps.js';
import { toOpenRouterKey } from './openrouter/account-shapes.js';

const ruleFields = [
  'limit',
  'limit_reset',
  'expires_at',
  'disabled',
  'allowed_models',
  'allowed_providers',
  'management',
  'requests_per_minute',
  'tokens_per_minute',
  'allowed_mcp',
  'metrics',
] as const satisfies readonly (keyof KeyRulesChange)[];
/** OpenRouter's, taken and without effect: Switchyard has no bring-your-own-key spend to count in a limit. */
const byokField = 'include_byok_in_limit';
const keyFields: readonly string[] = ['name', byokField, ...ruleFields];

export interface KeyChange {
  name?: string;
  rules: KeyRulesChange;
}

/** A POST or PATCH body as a change of name and rules. Throws ApiError(400) for anything else. */
export function keyChangeOf(body: unknown): KeyChange {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'The request body must be a JSON object describing the key.');
  }
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((field) => !keyFields.includes(field));
  if (unknown !== undefined) {
    throw new ApiError(400, `Unknown field "${unknown}": a key takes ${keyFields.join(', ')}.`);
  }
  if (fields[byokField] !== undefined && typeof fields[byokField] !== 'boolean') {
    throw new ApiError(400, `${byokField} must be true or false.`);
  }
  const rules: Record<string, unknown> = {};
  for (const field of ruleFields) if (fields[field] !== undefined) rules[field] = fields[field];
  // OpenRouter's limit that never resets is a null reset.
  if (rules.limit_reset === null) rules.limit_reset = 'never';
  const change: KeyChange = { rules: rules as KeyRulesChange };
  if (fields.name !== undefined) change.name = fields.name as string;
  return change;
}

export function registerKeyManagementRoutes(
  server: FastifyInstance,
  base: ApiBase,
  keys: GatewayKeys,
  accounts: GatewayAccounts,
): void {
  function requireManagementKey(request: FastifyRequest): void {
    if (!accounts.mayManageKeys(authenticatedKey(request).id)) {
      throw new ApiError(
        403,
        'Managing keys through /keys needs a management key (switchyard keys update ID --management); ' +
          '/api-keys lists and deletes the calling key itself.',
      );
    }
  }

  function record(id: string) {
    const key = accounts.keyDetails(id);
    if (!key) throw new ApiError(404, `No API key has the id "${id}".`);
    return toOpenRouterKey(key, accounts.keyStatus(id));
  }

  server.get<{ Querystring: { include_disabled?: string; offset?: string } }>(
    `${base.prefix}/keys`,
    async (request) => {
      requireManagementKey(request);
      const includeDisabled = request.query.include_disabled === 'true';
      const offset = Number(request.query.offset ?? 0);
      if (!Number.isInteger(offset) || offset < 0) {
        throw new ApiError(400, 'The query parameter "offset" must be a whole number from 0.');
      }
      const records = keys.list().map((key) => record(key.id));
      return { data: records.filter((key) => includeDisabled || !key.disabled).slice(offset) };
    },
  );

  server.get<{ Params: { hash: string } }>(`${base.prefix}/keys/:hash`, async (request) => {
    requireManagementKey(request);
    return { data: record(request.params.hash) };
  });

  server.post(`${base.prefix}/keys`, async (request, reply) => {
    requireManagementKey(request);
    const change = keyChangeOf(request.body);
    const created = await accounts.createKey(change.name as string, change.rules);
    return reply.code(201).send({ data: record(created.id), key: created.key });
  });

  server.patch<{ Params: { hash: string } }>(`${base.prefix}/keys/:hash`, async (request) => {
    requireManagementKey(request);
    const change = keyChangeOf(request.body);
    await accounts.updateKey(request.params.hash, change.rules, change.name);
    return { data: record(request.params.hash) };
  });

  server.delete<{ Params: { hash: string } }>(`${base.prefix}/keys/:hash`, async (request) => {
    requireManagementKey(request);
    if (!(await keys.delete(request.params.hash)))
      throw new ApiError(404, `No API key has the id "${request.params.hash}".`);
    return { deleted: true };
  });
}
