// Whether a request on /v1 (or /api/v1) is a Gemini client's. Google's stable API version is `v1`, which is also the
// base of the OpenAI routes: `POST models/{model}:{method}` is Google's alone, but `GET models` and `GET models/{id}`
// are OpenAI's (OpenRouter's shape) as well. Google's clients send the key as `x-goog-api-key` or `?key=` and never an
// `Authorization` header; OpenAI's and OpenRouter's send `Authorization: Bearer`. The router tells them apart (a route
// constraint) rather than a handler, so the route that matched is the one whose authentication and error shape apply
// (route-access.ts), and the OpenAI routes stay as they are.

import type { FastifyInstance } from 'fastify';

type ConstraintStrategy = Parameters<FastifyInstance['addConstraintStrategy']>[0];

const name = 'geminiClient';

/** Route options for a route only a Gemini client's request reaches. */
export const geminiClientsOnly = { constraints: { [name]: true } };

/** A request that authenticates the Google way: `x-goog-api-key` or `?key=`, and no `Authorization` header. */
function isGeminiClient(request: { headers: Record<string, unknown>; url?: string }): boolean {
  if (request.headers.authorization !== undefined) return false;
  if (request.headers['x-goog-api-key'] !== undefined) return true;
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return query !== -1 && new URLSearchParams(url.slice(query + 1)).has('key');
}

const strategy: ConstraintStrategy = {
  name,
  // A request that is not a Gemini client's derives nothing and reaches the unconstrained (OpenAI) route.
  mustMatchWhenDerived: false,
  storage() {
    const stores = new Map<unknown, ReturnType<ReturnType<ConstraintStrategy['storage']>['get']>>();
    return {
      get: (value) => stores.get(value) ?? null,
      set: (value, store) => void stores.set(value, store),
    };
  },
  deriveConstraint: (request) => (isGeminiClient(request) ? true : undefined),
};

/** Teaches the server's router the constraint; before any route uses it. */
export function addGeminiClientConstraint(server: FastifyInstance): void {
  if (!server.hasConstraintStrategy(name)) server.addConstraintStrategy(strategy);
}
