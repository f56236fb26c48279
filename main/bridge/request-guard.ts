// Who may use the UI served by `switchyard serve`. A web page in the same browser can send requests to
// 127.0.0.1, so three checks stand in the way:
// - Host must name this server by a loopback name (or the address it was bound to) and its port: a DNS-rebinding
//   page reaches us under its own host name, which fails here.
// - Origin, when the browser sends one, must be this server's own: other sites' fetches are refused.
// - The token printed at start, from the HttpOnly SameSite=Strict cookie that visiting the printed URL set
//   (Jupyter's way) or from `Authorization: Bearer <token>`.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const loopbackHostnames = ['127.0.0.1', 'localhost', '[::1]'];

export function createUiToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Cookies are shared by every port of a host, so each server's cookie is named after its port. */
export function tokenCookieName(port: number): string {
  return `switchyard-ui-${port}`;
}

/** The host part of an address as it appears in a Host header (IPv6 in brackets). */
export function hostnameOf(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
}

export function isAllowedHost(host: string | undefined, port: number, hostnames: readonly string[]): boolean {
  if (!host) return false;
  const lower = host.toLowerCase();
  return hostnames.some((name) => lower === `${name.toLowerCase()}:${port}` || (port === 80 && lower === name));
}

/**
 * An absent Origin is fine (same-origin GETs, EventSource, curl); a present one must be this server, over HTTP or
 * over HTTPS (a team server behind a load balancer that terminates TLS: the same host name, so the same site).
 */
export function isAllowedOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (host === undefined) return false;
  const lower = origin.toLowerCase();
  return lower === `http://${host.toLowerCase()}` || lower === `https://${host.toLowerCase()}`;
}

export function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

export function tokenMatches(candidate: string | undefined, token: string): boolean {
  if (!candidate) return false;
  // Hashes of equal length, so the comparison takes the same time whatever was sent.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(candidate), digest(token));
}

export function presentedToken(headers: IncomingHttpHeaders, port: number): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  return bearer ?? cookieValue(headers.cookie, tokenCookieName(port));
}
