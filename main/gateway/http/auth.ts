// Authentication of every route that needs a key, which is every route that does not say otherwise
// (route-access.ts): `Authorization: Bearer <key>` (spec 5), or `x-api-key: <key>` as Anthropic's clients send it,
// or Google's `x-goog-api-key`. A missing, malformed, unknown or deleted key gets exactly the 7.1 body
// {"error":{"code":401,"message":…,"metadata":{}}}, or the 401 of the route's own protocol (reply.ts, error-shapes.ts).

import type { FastifyRequest } from 'fastify';
import { ApiError, invalidKeyMessage, type ApiKeyInfo } from '../../../shared/api/index.js';
import type { GatewayKeys } from '../deps.js';

const authenticated = new WeakMap<FastifyRequest, ApiKeyInfo>();

export function bearerSecret(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

function headerSecret(request: Pick<FastifyRequest, 'headers'>, name: string): string | null {
  const header = request.headers[name];
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  return value ? value : null;
}

/**
 * The key the caller presented: the Bearer token, else the `x-api-key` header (Anthropic's clients), else
 * `x-goog-api-key` (Google's); on the Gemini API's routes also `?key=`, as Google's clients may send it. Null when
 * there is none.
 */
export function presentedSecret(request: Pick<FastifyRequest, 'headers' | 'query' | 'routeOptions'>): string | null {
  const bearer = bearerSecret(request.headers.authorization);
  if (bearer !== null) return bearer;
  const header = headerSecret(request, 'x-api-key') ?? headerSecret(request, 'x-goog-api-key');
  if (header !== null || request.routeOptions.config.errorShape !== 'gemini') return header;
  const query = (request.query ?? {}) as Record<string, unknown>;
  return typeof query.key === 'string' && query.key.trim() ? query.key.trim() : null;
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
