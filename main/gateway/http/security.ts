// What a browser may do with the gateway. Any web page the user opens can send requests to 127.0.0.1, so:
//
// - Host check (DNS rebinding): while the gateway listens on loopback only, a request must name a loopback host
//   (localhost, *.localhost, 127.x.x.x, [::1]) or one allowed with --allowed-host. A page on evil.example whose
//   DNS answer flips to 127.0.0.1 sends `Host: evil.example` and gets a 403. Bound wider (--host 0.0.0.0), any
//   Host is accepted: the user chose to be reachable under names we cannot know; keys still guard every route.
// - Origin check: a request that carries an Origin (every cross-origin fetch does) is refused unless that origin
//   is allowed (--cors-origin / SWITCHYARD_CORS_ORIGINS) or is the gateway's own origin. A stolen key pasted
//   into a page therefore cannot be used from it, and a page cannot probe the API.
// - CORS is off by default: no Access-Control-* header is sent. For an allowed origin the gateway answers
//   preflights (204) and adds Access-Control-Allow-Origin to every answer, streams included (the headers go on
//   the raw response, which a hijacked SSE reply still writes).
//
// Refusals use the spec's error envelope with status 403.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import { ApiError } from '../../../shared/api/index.js';
import { AnswerCache } from '../../common/index.js';

export interface SecurityOptions {
  /** Origins (`scheme://host[:port]`) that browsers may call the gateway from; `*` allows any. Default: none. */
  corsOrigins?: readonly string[];
  /** Host names accepted in the Host header besides loopback ones, while bound to loopback (reverse proxies). */
  allowedHosts?: readonly string[];
}

const allowedMethods = 'GET, POST, DELETE, OPTIONS';
// mcp-session-id: a browser MCP client (the MCP Inspector) must read the session the hub at /mcp gave it.
const exposedHeaders = 'retry-after, x-should-retry, mcp-session-id, x-switchyard-dropped-tools, x-switchyard-cache';
const preflightMaxAgeSeconds = 600;
/** A header list as browsers send it in Access-Control-Request-Headers: tokens and commas only. */
const headerListPattern = /^[\w!#$%&'*+.^`|~-]+(?:\s*,\s*[\w!#$%&'*+.^`|~-]+)*$/;

/** Throws for anything that is not `*` or an http(s) origin; returns the origin in its canonical form. */
export function normalizeOrigin(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '*') return '*';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error(`"${value}" is not an origin; write it like https://app.example.com or http://localhost:5173.`);
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !bare) {
    throw new Error(`"${value}" is not an origin; write it like https://app.example.com (no path).`);
  }
  return url.origin;
}

/** Origins from a comma-separated list (SWITCHYARD_CORS_ORIGINS). */
export function parseOriginList(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map(normalizeOrigin);
}

/** `[::1]:7420` → `::1`; `LocalHost.:7420` → `localhost`; null when the value is not a host. */
export function hostnameOf(hostHeader: string): string | null {
  const value = hostHeader.trim().toLowerCase();
  let hostname: string;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1) return null;
    hostname = value.slice(1, end);
    const rest = value.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
  } else {
    const colon = value.indexOf(':');
    hostname = colon === -1 ? value : value.slice(0, colon);
    if (colon !== -1 && !/^\d{1,5}$/.test(value.slice(colon + 1))) return null;
  }
  if (hostname.endsWith('.')) hostname = hostname.slice(0, -1);
  return hostname === '' ? null : hostname;
}

export function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (isIP(hostname) === 4) return hostname.startsWith('127.');
  return hostname === '::1' || hostname === '0:0:0:0:0:0:0:1' || hostname === '::ffff:127.0.0.1';
}

/** Whether listening on `host` keeps the gateway on this machine. */
export function isLoopbackBind(host: string): boolean {
  return isLoopbackHostname(hostnameOf(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host) ?? '');
}

export class RequestGuard {
  private readonly corsOrigins: ReadonlySet<string>;
  private readonly anyOrigin: boolean;
  private readonly allowedHosts: ReadonlySet<string>;
  /** True until listen() binds a non-loopback address. */
  private checkHost = true;
  private boundHost: string | null = null;
  /** hostAllowed()'s answers by Host header, until bind(): the same few come with every request. */
  private readonly hostAnswers = new AnswerCache<boolean>(100);

  constructor(options: SecurityOptions = {}) {
    const origins = (options.corsOrigins ?? []).map(normalizeOrigin);
    this.anyOrigin = origins.includes('*');
    this.corsOrigins = new Set(origins.filter((origin) => origin !== '*'));
    this.allowedHosts = new Set((options.allowedHosts ?? []).map((host) => hostnameOf(host) ?? host.toLowerCase()));
  }

  /** Called with the address the server listens on. */
  bind(host: string): void {
    this.checkHost = isLoopbackBind(host);
    this.boundHost = hostnameOf(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
    this.hostAnswers.clear();
  }

  /** Fastify onRequest hook: refuses (403), answers a preflight (204), or adds the CORS headers and continues. */
  readonly onRequest = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const host = request.headers.host;
    if (host !== undefined && this.checkHost && !this.hostAllowed(host)) {
      throw new ApiError(
        403,
        `Host "${truncate(host)}" is not allowed: the gateway answers to localhost and 127.0.0.1 only. ` +
          'Start `switchyard serve` with --allowed-host to accept another name.',
        { reason: 'host_not_allowed' },
      );
    }
    const origin = request.headers.origin;
    if (origin === undefined) return undefined;
    const cors = this.corsAllows(origin);
    if (!cors && !this.isSameOrigin(origin, host)) {
      throw new ApiError(
        403,
        `Origin "${truncate(origin)}" is not allowed to call the gateway. ` +
          'Start `switchyard serve` with --cors-origin <origin> (or set SWITCHYARD_CORS_ORIGINS) to allow it.',
        { reason: 'origin_not_allowed' },
      );
    }
    if (!cors) return undefined;
    const raw = reply.raw;
    raw.setHeader('access-control-allow-origin', this.anyOrigin ? '*' : origin);
    raw.setHeader('vary', 'Origin');
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) {
      raw.setHeader('access-control-expose-headers', exposedHeaders);
      return undefined;
    }
    raw.setHeader('access-control-allow-methods', allowedMethods);
    const requested = request.headers['access-control-request-headers'];
    if (typeof requested === 'string' && headerListPattern.test(requested)) {
      raw.setHeader('access-control-allow-headers', requested);
    }
    raw.setHeader('access-control-max-age', String(preflightMaxAgeSeconds));
    raw.setHeader('vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
    return reply.code(204).send();
  };

  private hostAllowed(host: string): boolean {
    let allowed = this.hostAnswers.get(host);
    if (allowed === undefined) {
      const hostname = hostnameOf(host);
      allowed =
        hostname !== null &&
        (isLoopbackHostname(hostname) || hostname === this.boundHost || this.allowedHosts.has(hostname));
      this.hostAnswers.set(host, null, allowed);
    }
    return allowed;
  }

  private corsAllows(origin: string): boolean {
    return this.anyOrigin || this.corsOrigins.has(origin.toLowerCase());
  }

  /** The gateway's own origin (a page it serves): http://<the Host of this request>. */
  private isSameOrigin(origin: string, host: string | undefined): boolean {
    return host !== undefined && origin.toLowerCase() === `http://${host.toLowerCase()}`;
  }
}

function truncate(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
