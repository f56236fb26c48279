// The Caller (exchange.ts) of a request, read from its headers once: the key that authenticated it (auth.ts), the
// secret it presented, the app it names, and its abort signal (in-flight.ts).

import type { FastifyRequest } from 'fastify';
import { authenticatedKey, presentedSecret } from './auth.js';
import type { Caller } from './exchange.js';
import type { InFlightRequests } from './in-flight.js';

const maxHeaderChars = 200;

export function headerText(request: FastifyRequest, name: string): string | null {
  const raw = request.headers[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value ? value.slice(0, maxHeaderChars) : null;
}

/** The calling app's name: `X-Title`, or `X-OpenRouter-Title` as OpenRouter's own SDK sends it. */
export function appTitleOf(request: FastifyRequest): string | null {
  return headerText(request, 'x-title') ?? headerText(request, 'x-openrouter-title');
}

export interface CallerOptions {
  /**
   * Name the app by its User-Agent when it sends no X-Title: agent CLIs (Codex, Claude Code, gemini-cli) send
   * no title, and their user agent is what tells them apart in Activity.
   */
  appFromUserAgent?: boolean;
}

export function callerOf(request: FastifyRequest, inFlight: InFlightRequests, options: CallerOptions = {}): Caller {
  return {
    keyId: authenticatedKey(request).id,
    secret: presentedSecret(request) ?? '',
    appTitle: appTitleOf(request) ?? (options.appFromUserAgent ? headerText(request, 'user-agent') : null),
    appReferer: headerText(request, 'http-referer'),
    signal: inFlight.controllerOf(request).signal,
    route: request.routeOptions.url ?? 'unmatched',
    traceParent: headerText(request, 'traceparent'),
    cacheControl: headerText(request, 'cache-control'),
    switchyardCache: headerText(request, 'x-switchyard-cache'),
  };
}
