// The gateway's HTTP server: Fastify with every error in the spec's envelope, Bearer auth on every route that does
// not say otherwise (route-access.ts), the routes, and a graceful close. Wiring only; the work is in the route files.

import { STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import type FastifyFactory from 'fastify';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Logger } from 'pino';
import { ApiError } from '../../shared/api/index.js';
import { registerAccountRoutes } from './routes/account-routes.js';
import { apiBases, isApiPath, specBase } from './http/api-bases.js';
import { authenticate } from './http/auth.js';
import { sendError } from './http/reply.js';
import { registerChatCompletionsRoute } from './routes/chat-completions-route.js';
import { registerEmbeddingsRoute } from './routes/embeddings-route.js';
import { registerHealthRoutes } from './routes/health-routes.js';
import { registerLegacyCompletionsRoute } from './routes/legacy-completions-route.js';
import type { GatewayDeps } from './deps.js';
import { toApiError, type ErrorContext } from './http/errors.js';
import { InFlightRequests, ShuttingDownError } from './http/in-flight.js';
import { registerKeyManagementRoutes } from './routes/key-management-routes.js';
import { registerKeysRoutes } from './routes/keys-routes.js';
import { registerMcpRoute } from './routes/mcp-route.js';
import { registerMetricsRoute } from './routes/metrics-route.js';
import { registerModelsRoute } from './routes/models-route.js';
import type { ErrorShape } from './http/error-shapes.js';
import { registerAnthropicRoutes } from './protocols/anthropic/routes.js';
import { registerGeminiRoutes } from './protocols/gemini/routes.js';
import { registerResponsesRoutes } from './protocols/responses/routes.js';
import { routeAccess, type RouteAccess } from './http/route-access.js';
import { RequestGuard, type SecurityOptions } from './http/security.js';
import { discardUnreadBody } from './http/unread-body.js';
import type { RequestContext } from './pipeline/context.js';
import { retryPolicy, type RetryOptions } from './pipeline/upstream-attempts.js';
import type { GenerationWatcher } from './pipeline/watch.js';
import { StickyTargets } from './pipeline/sticky-targets.js';
import { TargetStats } from './pipeline/target-stats.js';

// Fastify is CommonJS: required, not imported. Importing it would make Node's ESM loader scan fastify.js (35 KB) for
// its export names, and V8 optimises the scanner at that size, which leaves MBs of freed compiler memory resident
// in an idle gateway (docs/decisions/018-idle-memory.md).
const fastify = createRequire(import.meta.url)('fastify') as typeof FastifyFactory;

export interface GatewayOptions {
  /** Largest accepted request body. Default 10 MiB. */
  bodyLimitBytes?: number;
  /**
   * How long a caller has to send a whole request, headers and body; then it gets a 408 and the connection is
   * closed. Responses (streams of any length) are not limited by it. Default 60 s.
   */
  requestTimeoutMs?: number;
  /**
   * A `: SWITCHYARD PROCESSING` comment is sent after this much silence in a stream; a stream whose upstream has
   * not answered yet (retries, a slow first token) opens after this long. Default 15 s; 0 = never.
   */
  keepAliveMs?: number;
  /**
   * A stream whose caller takes nothing of it for this long (its connection open, its socket full) is ended as if
   * the caller had left: the upstream request is aborted and the usage row says cancelled. Default 60 s; 0 = never.
   */
  stalledCallerMs?: number;
  /** Retries of failed upstream attempts before the first byte (see upstream-attempts.ts for the defaults). */
  retry?: RetryOptions;
  /** Host and Origin checks and CORS (security.ts): by default loopback Host names only and no CORS. */
  security?: SecurityOptions;
  /** What watches every generation (pipeline/watch.ts): metrics, traces, target health. None by default. */
  watchers?: readonly GenerationWatcher[];
}

/** A route on the gateway's server, as registered (the gateway's own and any added later, such as the UI's). */
export interface GatewayRoute {
  method: string;
  /** Fastify's pattern, e.g. `/api/v1/api-keys/:key_id`. */
  url: string;
  access: RouteAccess;
  /** The protocol whose error body the route answers with. */
  errorShape: ErrorShape;
  /** What else a request needs to reach the route (Fastify's route constraints), e.g. Google's way of sending a key. */
  constraints: Record<string, unknown>;
}

export interface Gateway {
  /** The Fastify instance (for inject() in tests and for the composition root). */
  server: FastifyInstance;
  /** Every route registered on the server so far. */
  routes(): GatewayRoute[];
  /** Starts listening; resolves with the base URL, e.g. `http://127.0.0.1:4141/api/v1`. */
  listen(address: { host: string; port: number }): Promise<string>;
  /**
   * Stops accepting connections, gives requests in progress up to `graceMs` to finish, then aborts the rest
   * (streams end with an error chunk 'Switchyard is shutting down' and `[DONE]`) and closes every connection.
   */
  close(graceMs?: number): Promise<void>;
}

const defaultBodyLimitBytes = 10 * 1024 * 1024;
const defaultRequestTimeoutMs = 60_000;
const defaultStalledCallerMs = 60_000;
/** After the abort, how long aborted requests get to write their last chunk before their sockets are closed. */
const abortDrainMs = 2_000;

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** A Fastify route pattern as a regular expression over paths: `:param` is one segment, `*` the rest. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) return '[^/]+';
      if (segment === '*') return '.*';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * Malformed HTTP and requests that do not arrive in time never reach Fastify's routing: answer them in our
 * envelope too, then drop the connection.
 */
function clientErrorAnswerer(requestTimeoutMs: number) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : timedOut ? 408 : 400;
    const message =
      status === 431
        ? 'The request headers are too large.'
        : timedOut
          ? `The request did not arrive in time: headers and body must be sent within ${requestTimeoutMs / 1000} s.`
          : 'Malformed HTTP request.';
    if (socket.writable) writeErrorResponse(socket, status, message);
    socket.destroy();
  };
}

function writeErrorResponse(socket: Socket, status: number, message: string): void {
  const body = JSON.stringify(new ApiError(status, message).toBody());
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Fastify's own info lines ("Server listening at …") repeat what the CLI prints: keep its warnings, or all at debug. */
function quietFrameworkLogger(logger: Logger): FastifyBaseLogger {
  const level = logger.isLevelEnabled('debug') || !logger.isLevelEnabled('warn') ? logger.level : 'warn';
  // pino's Logger is a FastifyBaseLogger; the cast keeps the instance type the plain FastifyInstance.
  return logger.child({}, { level }) as FastifyBaseLogger;
}

export function createGateway(deps: GatewayDeps, options: GatewayOptions = {}): Gateway {
  const bodyLimitBytes = options.bodyLimitBytes ?? defaultBodyLimitBytes;
  const requestTimeoutMs = options.requestTimeoutMs ?? defaultRequestTimeoutMs;
  const errors: ErrorContext = { logger: deps.logger, bodyLimitBytes };
  const inFlight = new InFlightRequests();
  let closing = false;
  let closed: Promise<void> | null = null;

  const server = fastify({
    loggerInstance: quietFrameworkLogger(deps.logger),
    // No per-request log lines (they would carry URLs and headers); errors are logged where they are handled.
    logController: new fastify.LogController({ disableRequestLogging: true }),
    // Fastify's own rare lines (a failed hook) go to the framework logger itself: a pino child per request, made for a
    // reqId binding that nothing of ours logs, was a fixed cost of every request.
    childLoggerFactory: (logger) => logger,
    bodyLimit: bodyLimitBytes,
    // Fastify's own 503 during close has its own body shape; the onRequest hook answers in ours instead.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Node checks both timeouts every connectionsCheckingInterval (30 s by default): check often enough that the
    // limit is the limit. Receiving the request ends the request timeout; answering it has no such limit.
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: Math.min(requestTimeoutMs, 60_000),
      connectionsCheckingInterval: Math.min(1_000, Math.max(10, Math.round(requestTimeoutMs / 10))),
    },
    clientErrorHandler: clientErrorAnswerer(requestTimeoutMs),
    frameworkErrors: (error, _request, reply) => {
      sendError(reply, toApiError(error, errors));
    },
  });
  // Spec 4.1: Content-Type must be application/json; anything else is a 415.
  server.removeContentTypeParser('text/plain');
  // Fastify's JSON parser (with its prototype-poisoning guard), except that an empty body is no body: clients send
  // `Content-Type: application/json` on GET and DELETE too. A POST without a body fails validation instead.
  const parseJson = server.getDefaultJsonParser('error', 'error');
  server.removeContentTypeParser('application/json');
  server.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    // Fastify's default parser answers through `done`; its typings also allow a promise, which it never returns.
    else void parseJson(request, body as string, done);
  });

  // Every route, as registered (also those added after this function returns), for 405s and for tests.
  const routes: { options: RouteOptions; pattern: RegExp }[] = [];
  server.addHook('onRoute', (route) => {
    routes.push({ options: route, pattern: patternOf(route.url) });
  });
  // Access is read when asked, not at registration: onRoute hooks of inner scopes (the UI's) may still set it.
  const describeRoute = (route: RouteOptions): GatewayRoute[] =>
    [route.method].flat().map((method) => ({
      method,
      url: route.url,
      access: route.config?.access ?? 'api-key',
      errorShape: route.config?.errorShape ?? 'interface',
      constraints: route.constraints ?? {},
    }));
  /** The routes whose pattern matches this path, by any method. */
  const routesAt = (path: string): GatewayRoute[] =>
    routes.filter(({ pattern }) => pattern.test(path)).flatMap(({ options: route }) => describeRoute(route));

  /**
   * The route that matched decides (route-access.ts). A request that matched none is authenticated before its 404
   * when it is meant for the API, and before its 405 when the path is a route that needs a key.
   */
  const needsApiKey = (request: FastifyRequest): boolean => {
    if (!request.is404) return routeAccess(request) === 'api-key';
    const path = pathOf(request.url);
    return isApiPath(path) || routesAt(path).some((route) => route.access === 'api-key');
  };

  // First: a request from a foreign Host or Origin is refused before anything else looks at it.
  const guard = new RequestGuard(options.security);
  server.addHook('onRequest', guard.onRequest);
  server.addHook('onRequest', async (request, reply) => {
    inFlight.track(request, reply.raw);
    if (closing) {
      reply.header('connection', 'close');
      throw new ApiError(503, new ShuttingDownError().message);
    }
    if (needsApiKey(request)) authenticate(request, deps.keys);
  });

  server.setErrorHandler((error, request, reply) => {
    if (reply.sent || reply.raw.headersSent) return;
    // A refusal before the body was read (too large, no key): the client must still be able to read it.
    if (!closing) discardUnreadBody(request, reply);
    sendError(reply, toApiError(error, errors));
  });

  server.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const methods = [...new Set(routesAt(path).map((route) => route.method))];
    if (methods.length > 0) {
      const allow = methods.join(', ');
      const error = new ApiError(
        405,
        `Method ${request.method} is not allowed on ${path}; use ${allow}.`,
        {},
        { allow },
      );
      return sendError(reply, error);
    }
    const hint = isApiPath(path) ? '' : ` The API lives under /api/v1, and under /v1 with OpenAI's defaults.`;
    return sendError(reply, new ApiError(404, `Not found: ${request.method} ${path}.${hint}`));
  });

  const groups = { stats: new TargetStats(), sticky: new StickyTargets() };
  const chatContext: RequestContext = {
    deps,
    inFlight,
    errors,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    stalledCallerMs: options.stalledCallerMs ?? defaultStalledCallerMs,
    retry: retryPolicy(options.retry),
    watchers: [...(options.watchers ?? []), groups.stats],
    groups,
  };
  for (const base of apiBases) {
    registerChatCompletionsRoute(server, base, chatContext);
    registerEmbeddingsRoute(server, base, chatContext);
    registerLegacyCompletionsRoute(server, base, chatContext);
    registerModelsRoute(server, base, deps.providers, deps.accounts);
    registerKeysRoutes(server, base, deps.keys, deps.accounts);
    if (deps.accounts) {
      registerAccountRoutes(server, base, deps.accounts);
      registerKeyManagementRoutes(server, base, deps.keys, deps.accounts);
    }
  }
  // The agent protocols, each translated to any provider kind (protocols/).
  registerResponsesRoutes(server, chatContext);
  registerAnthropicRoutes(server, chatContext);
  registerGeminiRoutes(server, chatContext);
  if (deps.mcpHub) registerMcpRoute(server, deps.mcpHub, deps.accounts);
  registerHealthRoutes(server, deps.health, deps.logger);
  if (deps.metrics) registerMetricsRoute(server, { metrics: deps.metrics, accounts: deps.accounts });

  async function shutDown(graceMs: number): Promise<void> {
    closing = true;
    await deps.mcpHub?.closeSessions();
    const serverClosed = server.close(); // stops listening; idle keep-alive connections are closed
    if (!(await inFlight.waitUntilIdle(graceMs))) {
      inFlight.abortAll(new ShuttingDownError());
      await inFlight.waitUntilIdle(abortDrainMs);
    }
    // Every response has been handed to the OS (or its caller is stuck): no connection has anything left to do.
    server.server.closeAllConnections();
    await serverClosed;
  }

  return {
    server,

    routes: () => routes.flatMap(({ options: route }) => describeRoute(route)),

    async listen({ host, port }) {
      guard.bind(host);
      await server.listen({ host, port });
      const address = server.server.address() as AddressInfo;
      const hostText = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${hostText}:${address.port}${specBase.prefix}`;
    },

    close(graceMs = 10_000) {
      closed ??= shutDown(graceMs);
      return closed;
    },
  };
}
