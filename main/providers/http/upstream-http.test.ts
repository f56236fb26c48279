import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderTimeouts } from '../../../shared/api/index.js';
import type { ProviderTarget } from './upstream-http.js';
import { UpstreamHttp } from './upstream-http.js';

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A server that sends headers and part of a JSON body, then `then` (nothing, or a reset of the connection). */
async function partialAnswer(then: 'hang' | 'reset'): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"choices":');
    if (then === 'reset') setTimeout(() => response.socket?.resetAndDestroy(), 20);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function target(baseUrl: string, timeouts?: ProviderTimeouts): ProviderTarget {
  return {
    provider: { id: 'p', kind: 'openai', base_url: baseUrl, has_api_key: false, created_at: '', timeouts },
    apiKey: null,
  };
}

/** A POST of `{}` to the target's base URL, asking for JSON. */
function postJson(to: ProviderTarget) {
  return {
    target: to,
    method: 'POST' as const,
    url: to.provider.base_url,
    headers: {},
    body: {},
    accept: 'application/json',
  };
}

describe('UpstreamHttp', () => {
  it('rejects with our abort reason when the caller leaves mid-body, not with what undici made of it', async () => {
    const url = await partialAnswer('hang');
    const http = new UpstreamHttp();
    const controller = new AbortController();
    const call = postJson(target(url));
    const response = await http.send({ ...call, signal: controller.signal });
    const reading = http.readJson(response, call.target, controller.signal);
    const reason = new Error('the caller went away');
    // Tearing the body down makes undici fail the read; our reason wins (never a 502 for a caller gone).
    setTimeout(() => controller.abort(reason), 20);
    await expect(reading).rejects.toBe(reason);
    await http.close();
  });

  it('maps a connection lost mid-body to a 502 naming it when nobody aborted', async () => {
    const url = await partialAnswer('reset');
    const http = new UpstreamHttp();
    const signal = new AbortController().signal;
    const call = postJson(target(url));
    const response = await http.send({ ...call, signal });
    await expect(http.readJson(response, call.target, signal)).rejects.toMatchObject({
      status: 502,
      message: expect.stringContaining('The connection to provider "p" was lost') as unknown,
    });
    await http.close();
  });

  it('holds each provider to its own timeouts where it has them', async () => {
    const url = await partialAnswer('hang');
    const http = new UpstreamHttp({ bodyTimeoutMs: 300_000 });
    const signal = new AbortController().signal;
    const own = target(url, { idle: 1 });
    const call = postJson(own);
    const response = await http.send({ ...call, signal });
    await expect(http.readJson(response, own, signal)).rejects.toMatchObject({
      status: 504,
      message: 'Provider "p" did not finish sending its answer within 1 s.',
    });
    await http.close();
  });
});
