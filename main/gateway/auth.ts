// Bearer authentication (spec 5) of every route that needs a key, which is every route that does not say otherwise
// (route-access.ts). A missing, malformed, unknown or deleted key gets exactly the 7.1 body:
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

export function invalidKeyError(): ApiError {
  return new ApiError(401, invalidKeyMessage, {}, { 'www-authenticate': 'Bearer' });
}

/** Authenticates the request or throws the 401. */
export function authenticate(request: FastifyRequest, keys: GatewayKeys): ApiKeyInfo {
  const secret = bearerSecret(request.headers.authorization);
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
