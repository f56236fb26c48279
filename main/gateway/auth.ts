// Authentication of every route that needs a key, which is every route that does not say otherwise
// (route-access.ts): `Authorization: Bearer <key>` (spec 5), or `x-api-key: <key>` as Anthropic's clients send it.
// A missing, malformed, unknown or deleted key gets exactly the 7.1 body:
// {"error":{"code":401,"message":…,"metadata":{}}}.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, invalidKeyMessage, type ApiKeyInfo } from '../../shared/api/index.js';
import type { GatewayKeys } from './deps.js';

const authenticated = new WeakMap<FastifyRequest, ApiKeyInfo>();

export function bearerSecret(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** The key the caller presented: the Bearer token, else the `x-api-key` header; null when there is neither. */
export function presentedSecret(request: Pick<FastifyRequest, 'headers'>): string | null {
  const bearer = bearerSecret(request.headers.authorization);
  if (bearer !== null) return bearer;
  const header = request.headers['x-api-key'];
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  return value ? value : null;
}

export function invalidKeyError(): ApiError {
  return new ApiError(401, invalidKeyMessage, {}, { 'www-authenticate': 'Bearer' });
}

/** Authenticates the request or throws the 401. */
export function authenticate(request: FastifyRequest, keys: GatewayKeys): ApiKeyInfo {
  const secret = presentedSecret(request);
  const key = secret === null ? null : keys.authenticate(secret);
  if (!key) throw invalidKeyError();
  authenticated.set(request, key);
  return key;
}

/** The key that authenticated this request (set by the onRequest hook). */
export function authenticatedKey(request: FastifyRequest): ApiKeyInfo {
  const key = authenticated.get(request);
  if (!key) throw invalidKeyError();
  return key;
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).headers(error.headers).send(error.toBody());
}
