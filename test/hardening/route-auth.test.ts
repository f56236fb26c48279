// Authentication follows the route that matched, not the URL's spelling. The router decodes percent escapes, takes
// the path of an absolute-form target and resolves dot segments, so every spelling of every route that needs a key
// is sent on a raw socket (no client normalises it first), without a key and with one. The routes come from the
// server itself, so a route added later is covered without touching this file; a public one must be added to the
// list below on purpose.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayRoute } from '../../main/gateway/index.js';
import { errorBody } from '../../main/gateway/http/error-shapes.js';
import { ApiError, invalidKeyMessage } from '../../shared/api/index.js';
import { startAccountsHarness, type AccountsHarness } from '../accounts/harness.js';
import { rawHttp, type RawResponse } from './harness.js';

/** Every way of writing `path` that a router might still send to the same route. */
function spellings(path: string, port: number): string[] {
  const encodeLetters = (text: string, pattern: RegExp) =>
    text.replace(pattern, (letter) => `%${letter.charCodeAt(0).toString(16)}`);
  const [first = '', ...rest] = path.slice(1).split('/');
  const last = rest.at(-1) ?? '';
  return [
    path,
    // percent-encoded
    encodeLetters(path, /(?<=^\/)a/),
    encodeLetters(path, /[a-z]/g),
    encodeLetters(path, /[a-z]/g).toUpperCase(),
    `/${path.slice(1).replace(/\//g, '%2f')}`,
    // double slashes
    `/${path}`,
    path.replace(/\//g, '//'),
    `${path}//`,
    // dot segments, plain and encoded
    `/${first}/./${rest.join('/')}`,
    `/x/../${path.slice(1)}`,
    `/${first}/x/../${rest.join('/')}`,
    `${path}/.`,
    `/x/%2e%2e/${path.slice(1)}`,
    `/${first}/%2E/${rest.join('/')}`,
    // absolute-form targets
    `http://127.0.0.1:${port}${path}`,
    `http://evil.example${path}`,
    `HTTP://X${path}`,
    // case
    path.toUpperCase(),
    `/${first.toUpperCase()}/${rest.join('/')}`,
    `${path.slice(0, path.length - last.length)}${last.toUpperCase()}`,
    // what follows the path
    `${path}/`,
    `${path}?x=1`,
    `${path}#fragment`,
    `${path};x=1`,
  ];
}

/** A route pattern made into a path: each `:param` becomes a value no key, generation or model has. */
function concretePath(url: string): string {
  return url.replace(/:[^/]+/g, 'no-such-id');
}

describe('authentication of every route, however its URL is spelled', () => {
  let harness: AccountsHarness;
  let port: number;
  let secret: string;

  beforeAll(async () => {
    harness = await startAccountsHarness();
    port = Number(new URL(harness.baseURL).port);
    secret = (await harness.createKey('route-auth', { management: true })).key;
  });
  afterAll(async () => {
    await harness.close();
  });

  /**
   * `key` as `Authorization: Bearer`, or the Google way for a route only Google's clients reach (a route constraint:
   * protocols/gemini/gemini-client.ts), where no key is an empty `x-goog-api-key`: without the header the request
   * reaches the OpenAI route at the same path instead.
   */
  function send(method: string, target: string, key: string | null, route?: GatewayRoute): Promise<RawResponse> {
    const body =
      method === 'POST' ? JSON.stringify({ model: 'up/echo-1', messages: [{ role: 'user', content: 'hi' }] }) : '';
    const credentials =
      route?.constraints.geminiClient !== undefined
        ? `x-goog-api-key: ${key ?? ''}\r\n`
        : key === null
          ? ''
          : `Authorization: Bearer ${key}\r\n`;
    const head =
      `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
      credentials +
      (body ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : '') +
      'Connection: close\r\n\r\n';
    return rawHttp(port, head, body);
  }

  /** What identifies an answer of one route: its status, and its error message if it is an error. */
  function outcome(response: RawResponse): string {
    let message = '';
    try {
      message = (JSON.parse(response.text) as { error?: { message?: string } }).error?.message ?? '';
    } catch {
      // not JSON: the status says enough
    }
    return `${response.status} ${message}`;
  }

  it('knows the routes from the server, the API’s own among them', () => {
    const urls = harness.gateway.routes().map((route) => `${route.method} ${route.url}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        'POST /api/v1/chat/completions',
        'GET /api/v1/models',
        'GET /api/v1/credits',
        'DELETE /api/v1/api-keys/:key_id',
      ]),
    );
    // Only the probes are public, by decision (main/gateway/health-routes.ts); every other route needs a key.
    const publicRoutes = harness.gateway
      .routes()
      .filter((route) => route.access !== 'api-key')
      .map((route) => `${route.method} ${route.url}`);
    expect(publicRoutes.sort()).toEqual(['GET /healthz', 'GET /readyz', 'HEAD /healthz', 'HEAD /readyz']);
  });

  it('answers the public probes alike with and without a key, and with nothing a key would protect', async () => {
    for (const route of harness.gateway.routes().filter((each) => each.access === 'public')) {
      const label = `${route.method} ${route.url}`;
      const keyless = await send(route.method, route.url, null);
      const withKey = await send(route.method, route.url, secret);
      expect(keyless.status, label).toBe(200);
      expect(keyless.text, label).toBe(withKey.text);
      expect(keyless.text, label).not.toContain(secret.slice(0, 12));
      expect(keyless.text, label).not.toContain('route-auth');
      expect(keyless.text, label).not.toContain(harness.dataDir);
    }
  });

  it('never answers 2xx without a key, and answers 401 in the route’s protocol shape wherever a route matched', async () => {
    const reached: string[] = [];
    for (const route of harness.gateway.routes().filter((each) => each.access === 'api-key')) {
      const path = concretePath(route.url);
      // With a key, a spelling that reaches the route answers as the plain path does. A HEAD answer has no body to
      // tell one 404 from another (an unknown model's from the router's), so its GET twin is compared instead.
      const probe = route.method === 'HEAD' ? 'GET' : route.method;
      const routeOutcome = outcome(await send(probe, path, secret, route));
      for (const target of spellings(path, port)) {
        const label = `${route.method} ${target}${route.constraints.geminiClient === undefined ? '' : ' (Google’s way)'}`;
        const keyless = await send(route.method, target, null, route);
        expect(keyless.status, label).toBeGreaterThanOrEqual(400);
        expect(keyless.status, label).toBeLessThan(500);
        if (outcome(await send(probe, target, secret, route)) !== routeOutcome) continue;
        reached.push(label);
        expect(keyless.status, label).toBe(401);
        if (route.method !== 'HEAD') {
          // The interface's routes answer its envelope; the agent protocols' routes their own protocol's error body.
          const expected =
            route.errorShape === 'interface'
              ? { error: { code: 401, message: invalidKeyMessage, metadata: {} } }
              : errorBody(route.errorShape, new ApiError(401, invalidKeyMessage));
          expect(JSON.parse(keyless.text), label).toEqual(expected);
        }
      }
    }
    // The spellings the router is known to send to a route did reach it, so the check above was made on them.
    expect(reached).toEqual(
      expect.arrayContaining([
        'GET /%61pi/v1/credits',
        `GET http://127.0.0.1:${port}/api/v1/credits`,
        'GET http://evil.example/api/v1/credits',
        'POST /%61pi/v1/chat/completions',
        'GET /v1/models (Google’s way)',
        'GET /%61pi/v1/models/* (Google’s way)',
      ]),
    );
  });
});
