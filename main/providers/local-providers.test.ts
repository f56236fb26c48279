import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../test/support/recording-server.js';
import { LocalProviders, lmStudioBaseUrl, localServersFromEnv, ollamaBaseUrl } from './local-providers.js';

/** What each environment variable is read with (OLLAMA_HOST as Ollama reads it). */
const baseUrlFrom = { OLLAMA_HOST: ollamaBaseUrl, LMSTUDIO_BASE_URL: lmStudioBaseUrl };

describe('local base URLs from the environment', () => {
  it.each([
    ['OLLAMA_HOST', undefined, 'http://127.0.0.1:11434/v1'],
    ['OLLAMA_HOST', '', 'http://127.0.0.1:11434/v1'],
    ['OLLAMA_HOST', '127.0.0.1:11434', 'http://127.0.0.1:11434/v1'],
    ['OLLAMA_HOST', 'localhost:5000', 'http://localhost:5000/v1'],
    ['OLLAMA_HOST', '0.0.0.0', 'http://127.0.0.1:11434/v1'],
    ['OLLAMA_HOST', '0.0.0.0:8080', 'http://127.0.0.1:8080/v1'],
    ['OLLAMA_HOST', ':9000', 'http://127.0.0.1:9000/v1'],
    ['OLLAMA_HOST', 'http://gpu-box:11434', 'http://gpu-box:11434/v1'],
    ['OLLAMA_HOST', 'https://ollama.example.com', 'https://ollama.example.com:443/v1'],
    ['OLLAMA_HOST', 'http://host', 'http://host:80/v1'],
    ['OLLAMA_HOST', 'http://host:1234/proxy/', 'http://host:1234/proxy/v1'],
    ['OLLAMA_HOST', '[::1]:11434', 'http://[::1]:11434/v1'],
    ['OLLAMA_HOST', '[::]', 'http://[::1]:11434/v1'],
    ['LMSTUDIO_BASE_URL', undefined, 'http://127.0.0.1:1234/v1'],
    ['LMSTUDIO_BASE_URL', 'http://127.0.0.1:4321/v1', 'http://127.0.0.1:4321/v1'],
    ['LMSTUDIO_BASE_URL', 'http://127.0.0.1:4321', 'http://127.0.0.1:4321/v1'],
    ['LMSTUDIO_BASE_URL', 'localhost:4321/', 'http://localhost:4321/v1'],
  ] as const)('%s=%j → %s', (variable, value, expected) => {
    expect(baseUrlFrom[variable](value)).toBe(expected);
  });

  it('reads both addresses from the environment', () => {
    expect(localServersFromEnv({ OLLAMA_HOST: '127.0.0.1:1', LMSTUDIO_BASE_URL: 'http://127.0.0.1:2/v1' })).toEqual([
      { id: 'ollama', name: 'Ollama', baseUrl: 'http://127.0.0.1:1/v1' },
      { id: 'lmstudio', name: 'LM Studio', baseUrl: 'http://127.0.0.1:2/v1' },
    ]);
  });
});

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

type Behaviour = 'models' | 'hang' | 'not-json' | 'error';

/** A local server whose GET /v1/models does what `behaviour.current` says; counts its requests. */
async function localServer(initial: Behaviour) {
  const state = { current: initial, requests: 0 };
  const server = createServer((_request, response) => {
    state.requests += 1;
    if (state.current === 'hang') return; // never answers
    if (state.current === 'error') {
      response.writeHead(500).end('{}');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      state.current === 'models' ? JSON.stringify({ object: 'list', data: [{ id: 'qwen3:8b' }] }) : '<html>',
    );
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { state, baseUrl, server };
}

/** Resolves when a request to `server` is closed by the client before any answer: the client gave up on it. */
async function givenUp(server: Server): Promise<void> {
  const [, response] = (await once(server, 'request')) as [unknown, ServerResponse];
  if (!response.writableFinished) await once(response, 'close');
}

describe('LocalProviders', () => {
  it('lists only the servers that answer GET /models with a model list, as keyless local openai providers', async () => {
    const ollama = await localServer('models');
    const hanging = await localServer('hang');
    const html = await localServer('not-json');
    const local = new LocalProviders({
      servers: [
        { id: 'ollama', name: 'Ollama', baseUrl: ollama.baseUrl },
        { id: 'hangs', name: 'Hangs', baseUrl: hanging.baseUrl },
        { id: 'html', name: 'Html', baseUrl: html.baseUrl },
        { id: 'lmstudio', name: 'LM Studio', baseUrl: `http://127.0.0.1:${await closedPort()}/v1` },
      ],
      probeTimeoutMs: 200,
    });
    try {
      expect(local.listProviders()).toEqual([]);
      const hangingGivenUp = givenUp(hanging.server);
      await local.refresh();
      await hangingGivenUp; // the hanging one is given up on: refresh closed its request
      expect(local.listProviders()).toEqual([
        {
          id: 'ollama',
          kind: 'openai',
          base_url: ollama.baseUrl,
          has_api_key: false,
          created_at: expect.any(String),
          source: 'local',
        },
      ]);
      expect(await local.getApiKey()).toBeNull();
      expect(local.describeAbsent('lmstudio')).toMatch(
        /^No LM Studio server answered at http:\/\/127\.0\.0\.1:\d+\/v1\.$/,
      );
      expect(local.describeAbsent('ollama')).toBeNull();
    } finally {
      await local.close();
    }
  });

  it('trusts an answer for probeTtlMs, looks at one absent server at most every absentRetryMs, and notices changes', async () => {
    const server = await localServer('error');
    let now = 1_000_000;
    const local = new LocalProviders({
      servers: [{ id: 'ollama', name: 'Ollama', baseUrl: server.baseUrl }],
      probeTtlMs: 30_000,
      absentRetryMs: 2_000,
      now: () => now,
    });
    try {
      await Promise.all([local.refresh(), local.refresh()]);
      expect(server.state.requests).toBe(1); // concurrent callers share one probe
      const version = local.changeVersion();
      await local.refresh('ollama');
      expect(server.state.requests).toBe(1); // absent, but looked at just now
      server.state.current = 'models';
      now += 2_000;
      await local.refresh('ollama');
      expect(server.state.requests).toBe(2);
      expect(local.listProviders().map((info) => info.id)).toEqual(['ollama']);
      expect(local.changeVersion()).not.toBe(version);
      await local.refresh('ollama'); // known to run: a request never waits for a look
      now += 29_000;
      await local.refresh();
      expect(server.state.requests).toBe(2);
      server.state.current = 'error';
      now += 1_000;
      await local.refresh();
      expect(server.state.requests).toBe(3);
      expect(local.listProviders()).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it('close() ends a probe in flight at once', async () => {
    const hanging = await localServer('hang');
    const local = new LocalProviders({
      servers: [{ id: 'ollama', name: 'Ollama', baseUrl: hanging.baseUrl }],
      probeTimeoutMs: 60_000,
    });
    const probing = once(hanging.server, 'request');
    const refreshing = local.refresh();
    await probing;
    await local.close();
    await refreshing;
    expect(local.listProviders()).toEqual([]);
  });
});
