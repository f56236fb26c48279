// Who may call a route of the server. Every route needs a gateway API key unless its route config says otherwise,
// so a route added later (an OpenAI-style /v1, a plugin) is protected without anyone remembering to protect it.
// The gateway decides on the route that matched, never on the URL's spelling: the router decodes
// `/%61pi/v1/credits`, takes the path of an absolute-form target `http://x/api/v1/credits` and resolves dot
// segments, so a check on the raw URL and the router disagree about which route a request reaches.
//
//   config: { access: 'api-key' }   the default: a gateway key (Bearer), checked by the gateway's onRequest hook
//   config: { access: 'ui-token' }  the UI's token instead (main/bridge/request-guard.ts checks it)
//   config: { access: 'public' }    no check: the UI's built files and the page that turns its link into a cookie

import type { FastifyRequest } from 'fastify';

export type RouteAccess = 'api-key' | 'ui-token' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; absent means 'api-key'. */
    access?: RouteAccess;
  }
}

/** The access of the route this request matched (for a request that matched none, see create-gateway.ts). */
export function routeAccess(request: FastifyRequest): RouteAccess {
  return request.routeOptions.config.access ?? 'api-key';
}
