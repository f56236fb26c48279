// Security: loopback binding by default, Host checks against DNS rebinding, Origin checks, CORS off by default with
// an allowlist, and API keys compared in constant time.

import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useHarness } from '../support/use-harness.js';
import { hashKeySecret, secretMatchesHash } from '../../main/accounts/key-secret.js';
import { hostnameOf, normalizeOrigin, parseOriginList } from '../../main/gateway/http/security.js';
import {
  callerSecret,
  expectErrorShape,
  faults,
  rawHttp,
  sseData,
  startHardeningHarness,
  type HardeningHarness,
} from './harness.js';

/** A GET /models with these extra header lines (a raw request, so that any Host can be sent). */
async function getModels(harness: HardeningHarness, headerLines: string, auth = true) {
  return rawHttp(
    harness.port,
    `GET /api/v1/models HTTP/1.1\r\n${headerLines}` +
      `${auth ? `Authorization: Bearer ${callerSecret}\r\n` : ''}Connection: close\r\n\r\n`,
  );
}

describe('Host and Origin checks on a loopback gateway', () => {
  const harness = useHarness(startHardeningHarness);

  it.each(['127.0.0.1:{port}', 'localhost:{port}', '[::1]:{port}', 'LOCALHOST', 'app.localhost:{port}', '127.0.0.2'])(
    'accepts Host: %s',
    async (host) => {
      const { status } = await getModels(harness(), `Host: ${host.replace('{port}', String(harness().port))}\r\n`);
      expect(status).toBe(200);
    },
  );

  it.each(['evil.example:{port}', 'evil.example', '127.0.0.1.nip.io:{port}', 'localhost.evil.example', '[::1', ':80'])(
    'refuses Host: %s with 403 in the error envelope, before authentication',
    async (host) => {
      const { status, text } = await getModels(
        harness(),
        `Host: ${host.replace('{port}', String(harness().port))}\r\n`,
        false,
      );
      expect(status).toBe(403);
      expect(expectErrorShape(403, text).message).toContain('Host');
    },
  );

  it('refuses requests from another origin, even with a valid key, and sends no CORS headers', async () => {
    const { status, text, headers } = await getModels(
      harness(),
      `Host: 127.0.0.1:${harness().port}\r\nOrigin: https://evil.example\r\n`,
    );
    expect(status).toBe(403);
    expect(expectErrorShape(403, text).message).toContain('Origin');
    expect(headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a preflight when CORS is off', async () => {
    const { status, headers } = await rawHttp(
      harness().port,
      `OPTIONS /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${harness().port}\r\nOrigin: https://app.example\r\n` +
        'Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: authorization, content-type\r\n' +
        'Connection: close\r\n\r\n',
    );
    expect(status).toBe(403);
    expect(headers['access-control-allow-origin']).toBeUndefined();
  });

  it('accepts the gateway’s own origin and the literal "null" origin not at all', async () => {
    const own = await getModels(
      harness(),
      `Host: 127.0.0.1:${harness().port}\r\nOrigin: http://127.0.0.1:${harness().port}\r\n`,
    );
    expect(own.status).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBeUndefined();
    const sandboxed = await getModels(harness(), `Host: 127.0.0.1:${harness().port}\r\nOrigin: null\r\n`);
    expect(sandboxed.status).toBe(403);
  });

  it('still requires a key from a good Host and no Origin', async () => {
    const { status, text } = await getModels(harness(), `Host: 127.0.0.1:${harness().port}\r\n`, false);
    expect(status).toBe(401);
    expectErrorShape(401, text);
  });
});

describe('CORS with an allowlist', () => {
  let harness: HardeningHarness;
  const allowed = 'https://app.example';

  beforeAll(async () => {
    harness = await startHardeningHarness({
      gateway: { security: { corsOrigins: [allowed], allowedHosts: ['gateway.internal'] } },
    });
  });
  afterAll(async () => {
    await harness.close();
  });

  it('answers a preflight from an allowed origin with 204 and the CORS headers', async () => {
    const { status, headers } = await rawHttp(
      harness.port,
      `OPTIONS /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${harness.port}\r\nOrigin: ${allowed}\r\n` +
        'Access-Control-Request-Method: POST\r\n' +
        'Access-Control-Request-Headers: authorization, content-type, x-stainless-os\r\nConnection: close\r\n\r\n',
    );
    expect(status).toBe(204);
    expect(headers['access-control-allow-origin']).toBe(allowed);
    expect(headers['access-control-allow-methods']).toContain('POST');
    expect(headers['access-control-allow-headers']).toBe('authorization, content-type, x-stainless-os');
    expect(headers['access-control-allow-credentials']).toBeUndefined();
    expect(headers.vary).toContain('Origin');
  });

  it('adds Access-Control-Allow-Origin to streams, whole answers and errors for the allowed origin', async () => {
    const headers = { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json', origin: allowed };
    const body = (stream: boolean) =>
      JSON.stringify({ model: `fault/${faults.ok}`, stream, messages: [{ role: 'user', content: 'hi' }] });
    const stream = await fetch(`${harness.baseURL}/chat/completions`, { method: 'POST', headers, body: body(true) });
    expect(stream.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(sseData(await stream.text()).at(-1)).toBe('[DONE]');
    const whole = await fetch(`${harness.baseURL}/chat/completions`, { method: 'POST', headers, body: body(false) });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('access-control-allow-origin')).toBe(allowed);
    const unauthorized = await fetch(`${harness.baseURL}/models`, { headers: { origin: allowed } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(allowed);
  });

  it('still refuses other origins, and accepts an --allowed-host name', async () => {
    const other = await getModels(harness, `Host: 127.0.0.1:${harness.port}\r\nOrigin: https://other.example\r\n`);
    expect(other.status).toBe(403);
    const named = await getModels(harness, `Host: gateway.internal:${harness.port}\r\n`);
    expect(named.status).toBe(200);
  });
});

describe('a gateway bound to every interface', () => {
  const harness = useHarness(() => startHardeningHarness({ host: '0.0.0.0' }));

  it('accepts any Host but still requires a key', async () => {
    const anonymous = await getModels(harness(), 'Host: my-server.lan:7420\r\n', false);
    expect(anonymous.status).toBe(401);
    const withKey = await getModels(harness(), 'Host: my-server.lan:7420\r\n');
    expect(withKey.status).toBe(200);
  });
});

describe('origin and host parsing', () => {
  it('normalises origins and refuses what is not one', () => {
    expect(normalizeOrigin('https://App.Example/')).toBe('https://app.example');
    expect(normalizeOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    expect(normalizeOrigin(' * ')).toBe('*');
    for (const bad of ['https://app.example/path', 'ftp://x.example', 'app.example', '', 'http://']) {
      expect(() => normalizeOrigin(bad)).toThrow(/origin/);
    }
    expect(parseOriginList(' https://a.example, ,http://b.example:8080 ')).toEqual([
      'https://a.example',
      'http://b.example:8080',
    ]);
  });

  it('reads host names out of Host headers', () => {
    expect(hostnameOf('[::1]:7420')).toBe('::1');
    expect(hostnameOf('LocalHost.:7420')).toBe('localhost');
    expect(hostnameOf('example.com:abc')).toBeNull();
    expect(hostnameOf('[::1')).toBeNull();
  });
});

describe('gateway keys are compared in constant time', () => {
  it('compares the hash of a presented secret with crypto.timingSafeEqual, on equal lengths', () => {
    const spy = vi.spyOn(crypto, 'timingSafeEqual');
    try {
      const stored = hashKeySecret('sk-sy-v1-0123456789abcdef-right');
      expect(secretMatchesHash('sk-sy-v1-0123456789abcdef-right', stored)).toBe(true);
      expect(secretMatchesHash('sk-sy-v1-0123456789abcdef-wrong', stored)).toBe(false);
      expect(secretMatchesHash('x', stored)).toBe(false); // a short guess is hashed to the same length first
      expect(spy).toHaveBeenCalledTimes(3);
      for (const [presented, expected] of spy.mock.calls) {
        expect((presented as Buffer).length).toBe((expected as Buffer).length);
      }
    } finally {
      spy.mockRestore();
    }
  });
});
