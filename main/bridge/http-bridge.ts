// The bridge and the UI over HTTP, on the gateway's own server (`switchyard serve`): the built renderer at `/`,
// POST /bridge/invoke/<channel>, GET /bridge/events as Server-Sent Events, and GET /bridge/session, which the page
// asks whether its sign-in is still taken before it shows the app. Everything here sits in its own Fastify context
// with its own Host/Origin/token checks (request-guard.ts), so the gateway's API is untouched.
// The checks run in onRequest, before any body is read: a caller without the token gets its 401 while its body is
// still on the wire, and each channel reads no more than its own limit (body-limits.ts).

import { createRequire } from 'node:module';
import path from 'node:path';
import type FastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../shared/api/index.js';
import type { BridgeErrorCode } from '../../shared/bridge/transport.js';
import { installLinkHash, installLinkPrefix, installLinkUiPath } from '../../shared/mcp/install-link.js';
import type { Logger } from '../common/index.js';
import { routeAccess, type RouteAccess } from '../gateway/index.js';
import { invokeBodyLimit, maxInvokeBodyLimitBytes } from './body-limits.js';
import { codeOfStatus, httpStatusOf } from './bridge-errors.js';
import type { BridgeHandlers } from './create-bridge-handlers.js';
import type { HubEvent } from './event-hub.js';
import { isRendererBuilt } from './renderer-files.js';
import { sessionCookieName, type UiSignIn } from './ui-sign-in.js';
import {
  cookieValue,
  hostnameOf,
  isAllowedHost,
  isAllowedOrigin,
  loopbackHostnames,
  presentedToken,
  tokenCookieName,
  tokenMatches,
} from './request-guard.js';

// Required, not imported, as Fastify is in main/gateway/create-gateway.ts: the ESM loader's scan of this CommonJS
// module's source would leave freed compiler memory resident (docs/decisions/018-idle-memory.md).
const fastifyStatic = createRequire(import.meta.url)('@fastify/static') as typeof FastifyStatic;

export interface HttpBridgeOptions {
  token: string;
  /** Host names (besides the loopback ones) the UI may be reached by, e.g. the address serve was bound to. */
  extraHostnames?: string[];
  /** The built renderer; when it has no index.html, `/` explains how to build it. */
  rendererDir: string;
  logger: Logger;
  /** Comment lines that keep an idle event stream open through proxies. Default 15 s. */
  keepAliveMs?: number;
  /** A team server's sign-in with a management key (ui-sign-in.ts); without it, only the printed link signs in. */
  signIn?: UiSignIn;
}

/** Scripts and styles from our own files only; images and audio may be data URLs (attachments, tool results). */
export const uiContentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' data:; " +
  "connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const securityHeaders = {
  'content-security-policy': uiContentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** The port the request came in on: the Host check and the name of the token's cookie depend on it. */
function portOf(request: FastifyRequest): number {
  return request.socket.localPort ?? 0;
}

function sendError(reply: FastifyReply, code: BridgeErrorCode, message: string): FastifyReply {
  return reply.code(httpStatusOf[code]).header('cache-control', 'no-store').send({ error: { code, message } });
}

/** Invoke bodies must say their length, so that a channel's limit is checked before the body is read. */
function checkInvokeBodySize(request: FastifyRequest<{ Params: { channel: string } }>): void {
  if (request.headers['transfer-encoding'] !== undefined) {
    throw new ApiError(411, 'Send the body with a Content-Length header, not in chunks.');
  }
  const length = Number(request.headers['content-length'] ?? 0);
  const limit = invokeBodyLimit(request.params.channel);
  if (length > limit) {
    throw new ApiError(413, `The request is ${length} bytes; ${request.params.channel} accepts at most ${limit}.`);
  }
}

async function registerRendererFiles(pages: FastifyInstance, rendererDir: string): Promise<void> {
  await pages.register(fastifyStatic, {
    root: path.resolve(rendererDir),
    prefix: '/',
    index: false,
    // One route per built file, not a catch-all: every other path keeps the gateway's own 404 and 405.
    wildcard: false,
    // Built asset names carry a content hash.
    setHeaders: (reply, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      }
    },
  });
}

/**
 * `/`: the printed URL carries the token once: it becomes a cookie and the address bar loses it. A link with
 * another token (one printed before serve restarted) leads to the page without a cookie, where the UI says that
 * the link expired and how to get a new one.
 */
function registerStartPage(pages: FastifyInstance, token: string, rendererBuilt: boolean): void {
  pages.get<{ Querystring: { token?: string } }>('/', async (request, reply) => {
    const port = portOf(request);
    if (request.query.token !== undefined) {
      if (tokenMatches(request.query.token, token)) {
        reply.header('set-cookie', `${tokenCookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`);
      }
      return reply.code(302).header('cache-control', 'no-store').header('location', '/').send();
    }
    if (!rendererBuilt) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The Switchyard UI is not built: run `npm run build`, then restart `switchyard serve`.');
    }
    return reply.header('cache-control', 'no-store').sendFile('index.html');
  });
}

/**
 * `/ui/mcp/install?…`: an install link for the browser UI. The page opens its confirmation, which reads the same
 * link as the desktop app's `switchyard://mcp/install?…`; nothing is installed before the person confirms there.
 */
function registerInstallLinkPage(pages: FastifyInstance): void {
  pages.get(installLinkUiPath, async (request, reply) => {
    const query = request.raw.url?.slice(installLinkUiPath.length) ?? '';
    const location = `/${installLinkHash(`${installLinkPrefix}${query}`)}`;
    return reply.code(302).header('cache-control', 'no-store').header('location', location).send();
  });
}

/**
 * `/ui/sign-in` and `/ui/sign-out`: a team server's sign-in with a management key (ui-sign-in.ts). GET says whether
 * this server offers it, so the expired-link page can show the form; without it both POSTs are 404.
 */
function registerSignIn(pages: FastifyInstance, signIn: UiSignIn | undefined): void {
  const cookie = (request: FastifyRequest, value: string, maxAgeSeconds: number) => {
    // Behind a TLS-terminating load balancer the cookie must not travel over plain HTTP.
    const secure = request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
    return `${sessionCookieName}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
  };
  pages.get('/ui/sign-in', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ available: signIn !== undefined }),
  );
  pages.post<{ Body: { key?: unknown } | undefined }>('/ui/sign-in', async (request, reply) => {
    if (!signIn) throw new ApiError(404, 'This Switchyard signs in only with the link `switchyard serve` printed.');
    const { token, expiresAt } = await signIn.signIn(request.body?.key, request.ip);
    return reply
      .header('cache-control', 'no-store')
      .header('set-cookie', cookie(request, token, Math.floor((expiresAt - Date.now()) / 1000)))
      .send({ signed_in: true, expires_at: new Date(expiresAt).toISOString() });
  });
  pages.post('/ui/sign-out', async (request, reply) => {
    if (!signIn) throw new ApiError(404, 'This Switchyard signs in only with the link `switchyard serve` printed.');
    await signIn.signOut(cookieValue(request.headers.cookie, sessionCookieName));
    return reply
      .header('cache-control', 'no-store')
      .header('set-cookie', cookie(request, '', 0))
      .send({ signed_out: true });
  });
}

export async function registerHttpBridge(
  server: FastifyInstance,
  bridge: BridgeHandlers,
  options: HttpBridgeOptions,
): Promise<void> {
  const hostnames = [
    ...loopbackHostnames,
    ...(options.extraHostnames ?? []).filter((host) => !['0.0.0.0', '::'].includes(host)).map(hostnameOf),
  ];
  const streams = new Set<() => void>();
  const rendererBuilt = isRendererBuilt(options.rendererDir);

  await server.register(async (ui) => {
    // Secure by default: a route of the UI needs the token unless it says otherwise (route-access.ts).
    ui.addHook('onRoute', (route) => {
      route.config = { access: 'ui-token', ...route.config };
    });

    ui.addHook('onRequest', async (request, reply) => {
      const { host, origin } = request.headers;
      if (!isAllowedHost(host, portOf(request), hostnames)) {
        return sendError(reply, 'forbidden', `Host "${host ?? ''}" is not this Switchyard: open the printed URL.`);
      }
      if (!isAllowedOrigin(origin, host)) {
        return sendError(reply, 'forbidden', `Requests from ${origin} are not allowed.`);
      }
      reply.headers(securityHeaders);
      if (routeAccess(request) !== 'ui-token') return undefined;
      if (tokenMatches(presentedToken(request.headers, portOf(request)), options.token)) return undefined;
      if (options.signIn && (await options.signIn.check(cookieValue(request.headers.cookie, sessionCookieName)))) {
        return undefined;
      }
      return sendError(
        reply,
        'unauthorized',
        options.signIn
          ? 'Not signed in, or the session ended: sign in again with a management key.'
          : 'This sign-in link has expired: run `switchyard ui` for a new one, or open the link `switchyard serve` printed.',
      );
    });

    // Errors thrown before our handlers (the gateway's own request checks, body parsing) keep their status.
    ui.setErrorHandler((error: Error & { statusCode?: number; status?: number }, _request, reply) => {
      const status = error instanceof ApiError ? error.status : (error.statusCode ?? 500);
      if (status >= 500) options.logger.error({ err: error }, 'the UI server failed');
      const code: BridgeErrorCode = codeOfStatus[status] ?? (status < 500 ? 'invalid-request' : 'internal');
      if (error instanceof ApiError) reply.headers(error.headers);
      const message = status < 500 ? error.message : 'Something went wrong; the log has the details.';
      return reply.code(status).header('cache-control', 'no-store').send({ error: { code, message } });
    });

    // The page and its built files are public: they hold no secret, and they load before the token is known.
    await ui.register(async (pages) => {
      // This scope's hook runs after the UI's, so it has the last word on its routes.
      pages.addHook('onRoute', (route) => {
        route.config = { ...route.config, access: 'public' satisfies RouteAccess };
      });
      if (rendererBuilt) await registerRendererFiles(pages, options.rendererDir);
      registerStartPage(pages, options.token, rendererBuilt);
      registerSignIn(pages, options.signIn);
      registerInstallLinkPage(pages);
    });

    ui.post<{ Params: { channel: string } }>(
      '/bridge/invoke/:channel',
      { bodyLimit: maxInvokeBodyLimitBytes, onRequest: async (request) => checkInvokeBodySize(request) },
      async (request, reply) => {
        const result = await bridge.invoke(request.params.channel, request.body ?? {});
        if (result.ok) return reply.header('cache-control', 'no-store').send({ result: result.value });
        return sendError(reply, result.error.code, result.error.message);
      },
    );

    // Reaching the handler is the answer: the token check above refuses a sign-in the server no longer takes.
    ui.get('/bridge/session', async (_request, reply) =>
      reply.header('cache-control', 'no-store').send({ signed_in: true }),
    );

    ui.get('/bridge/events', async (request, reply) => {
      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        ...securityHeaders,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      const write = (event: HubEvent) => {
        if (!response.writableEnded) {
          response.write(`id: ${event.id}\nevent: ${event.name}\ndata: ${JSON.stringify(event.payload)}\n\n`);
        }
      };
      // A reconnecting EventSource says what it saw last; it gets what it missed, if still kept.
      const lastId = Number(request.headers['last-event-id']);
      if (Number.isInteger(lastId) && lastId > 0) for (const event of bridge.events.since(lastId) ?? []) write(event);
      else response.write(': connected\n\n');
      const subscription = bridge.events.subscribe(write);
      const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), options.keepAliveMs ?? 15_000);
      keepAlive.unref();
      const end = () => {
        clearInterval(keepAlive);
        subscription.dispose();
        streams.delete(end);
        if (!response.writableEnded) response.end();
      };
      streams.add(end);
      response.once('close', end);
    });
  });

  // Event streams never end by themselves: close them first, so the server's close does not wait for them.
  server.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });
}
