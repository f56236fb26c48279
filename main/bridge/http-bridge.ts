// The bridge and the UI over HTTP, on the gateway's own server (`switchyard serve`): the built renderer at `/`,
// POST /bridge/invoke/<channel>, and GET /bridge/events as Server-Sent Events. Everything here sits in its own
// Fastify context with its own Host/Origin/token checks (request-guard.ts), so the gateway's API is untouched.

import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../shared/api/index.js';
import type { BridgeErrorCode } from '../../shared/bridge/transport.js';
import type { Logger } from '../common/index.js';
import { codeOfStatus, httpStatusOf } from './bridge-errors.js';
import type { BridgeHandlers } from './create-bridge-handlers.js';
import type { HubEvent } from './event-hub.js';
import { isRendererBuilt } from './renderer-files.js';
import {
  hostnameOf,
  isAllowedHost,
  isAllowedOrigin,
  loopbackHostnames,
  presentedToken,
  tokenCookieName,
  tokenMatches,
} from './request-guard.js';

export interface HttpBridgeOptions {
  token: string;
  /** Host names (besides the loopback ones) the UI may be reached by, e.g. the address serve was bound to. */
  extraHostnames?: string[];
  /** The built renderer; when it has no index.html, `/` explains how to build it. */
  rendererDir: string;
  logger: Logger;
  /** Largest invoke body (images travel as data URLs). Default 32 MiB. */
  bodyLimitBytes?: number;
  /** Comment lines that keep an idle event stream open through proxies. Default 15 s. */
  keepAliveMs?: number;
}

/** Scripts and styles from our own files only; images may be data URLs (attachments). */
export const uiContentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const securityHeaders = {
  'content-security-policy': uiContentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

function sendError(reply: FastifyReply, code: BridgeErrorCode, message: string): FastifyReply {
  return reply.code(httpStatusOf[code]).header('cache-control', 'no-store').send({ error: { code, message } });
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

  const portOf = (request: FastifyRequest) => request.socket.localPort ?? 0;

  await server.register(async (ui) => {
    ui.addHook('onRequest', async (request, reply) => {
      const { host, origin } = request.headers;
      if (!isAllowedHost(host, portOf(request), hostnames)) {
        return sendError(reply, 'forbidden', `Host "${host ?? ''}" is not this Switchyard: open the printed URL.`);
      }
      if (!isAllowedOrigin(origin, host)) {
        return sendError(reply, 'forbidden', `Requests from ${origin} are not allowed.`);
      }
      reply.headers(securityHeaders);
    });

    // Errors thrown before our handlers (the gateway's own request checks, body parsing) keep their status.
    ui.setErrorHandler((error: Error & { statusCode?: number; status?: number }, _request, reply) => {
      const status = error instanceof ApiError ? error.status : (error.statusCode ?? 500);
      if (status >= 500) options.logger.error({ err: error }, 'the UI server failed');
      const code: BridgeErrorCode = codeOfStatus[status] ?? (status < 500 ? 'invalid-request' : 'internal');
      const message = status < 500 ? error.message : 'Something went wrong; the log has the details.';
      return reply.code(status).header('cache-control', 'no-store').send({ error: { code, message } });
    });

    function requireToken(request: FastifyRequest, reply: FastifyReply): boolean {
      if (tokenMatches(presentedToken(request.headers, portOf(request)), options.token)) return true;
      void sendError(reply, 'unauthorized', 'Open the URL that `switchyard serve` printed (it carries the token).');
      return false;
    }

    if (rendererBuilt) {
      await ui.register(fastifyStatic, {
        root: path.resolve(options.rendererDir),
        prefix: '/',
        index: false,
        // One route per built file, not a catch-all: every other path keeps the gateway's own 404 and 405.
        wildcard: false,
        // Built asset names carry a content hash.
        setHeaders: (response, filePath) => {
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            response.setHeader('cache-control', 'public, max-age=31536000, immutable');
          }
        },
      });
    }

    // The printed URL carries the token once: it becomes a cookie and the address bar loses it.
    ui.get<{ Querystring: { token?: string } }>('/', async (request, reply) => {
      const port = portOf(request);
      if (request.query.token !== undefined) {
        if (!tokenMatches(request.query.token, options.token)) {
          return sendError(
            reply,
            'unauthorized',
            'This link has a wrong token: use the URL `switchyard serve` printed.',
          );
        }
        reply.header('set-cookie', `${tokenCookieName(port)}=${options.token}; Path=/; HttpOnly; SameSite=Strict`);
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

    ui.post<{ Params: { channel: string } }>(
      '/bridge/invoke/:channel',
      { bodyLimit: options.bodyLimitBytes ?? 32 * 1024 * 1024 },
      async (request, reply) => {
        if (!requireToken(request, reply)) return reply;
        const result = await bridge.invoke(request.params.channel, request.body ?? {});
        if (result.ok) return reply.header('cache-control', 'no-store').send({ result: result.value });
        return sendError(reply, result.error.code, result.error.message);
      },
    );

    ui.get('/bridge/events', async (request, reply) => {
      if (!requireToken(request, reply)) return reply;
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
