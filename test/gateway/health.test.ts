// GET /healthz and GET /readyz as a load balancer or orchestrator calls them: on the gateway's port, without a
// key, through the app's real wiring (the readiness of the real database file). They answer fixed words only, and
// a foreign Host or Origin is refused on them as on every route.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../main/app/index.js';
import { createGateway, type Gateway, type GatewayHealth } from '../../main/gateway/index.js';
import { ProviderRegistry } from '../../main/providers/index.js';
import { databaseFileName } from '../../main/store/index.js';
import { rawHttp, type RawResponse } from '../hardening/harness.js';
import { MemoryKeys } from '../support/test-gateway.js';

function get(port: number, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const lines = Object.entries({ Host: `127.0.0.1:${port}`, ...headers }).map(([name, value]) => `${name}: ${value}`);
  return rawHttp(port, `GET ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`);
}

describe('/healthz and /readyz of the app’s gateway', () => {
  let dataDir: string;
  let app: App;
  let gateway: Gateway;
  let port: number;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-health-'));
    app = createApp({ dataDir, logger: pino({ level: 'silent' }), secretStoreMode: 'file', localProviders: false });
    gateway = app.createGateway({ mcpHub: false });
    port = Number(new URL(await gateway.listen({ host: '127.0.0.1', port: 0 })).port);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('says the process is up, without a key, and nothing more', async () => {
    const response = await get(port, '/healthz');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toEqual({ status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('is ready on a current database, and says which checks passed', async () => {
    const response = await get(port, '/readyz');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toEqual({
      status: 'ready',
      checks: { database: 'reachable', migrations: 'current' },
    });
    expect(response.text).not.toContain(dataDir);
  });

  it('is not ready (503) while the schema is behind this build, and ready again once it is current', async () => {
    const db = new Database(path.join(dataDir, databaseFileName));
    const current = db.pragma('user_version', { simple: true }) as number;
    try {
      db.pragma(`user_version = ${current - 1}`);
      const response = await get(port, '/readyz');
      expect(response.status).toBe(503);
      expect(JSON.parse(response.text)).toEqual({
        status: 'not ready',
        checks: { database: 'reachable', migrations: 'pending' },
      });
    } finally {
      db.pragma(`user_version = ${current}`);
      db.close();
    }
    expect((await get(port, '/readyz')).status).toBe(200);
  });

  it('refuses a foreign Host or Origin, as every route does', async () => {
    for (const target of ['/healthz', '/readyz']) {
      expect((await get(port, target, { Host: 'evil.example' })).status, target).toBe(403);
      expect((await get(port, target, { Origin: 'https://evil.example' })).status, target).toBe(403);
    }
  });

  it('answers HEAD for probes that send it', async () => {
    const head = `HEAD /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`;
    expect((await rawHttp(port, head)).status).toBe(200);
  });
});

describe('/readyz when the check itself fails', () => {
  let gateway: Gateway;
  let registry: ProviderRegistry;
  let port: number;
  const logged: string[] = [];
  const health: GatewayHealth = {
    readiness() {
      throw new Error('connect ECONNREFUSED 10.0.0.5:5432');
    },
  };

  beforeAll(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(line) });
    registry = new ProviderRegistry({
      source: { listProviders: () => [], getApiKey: async () => null, changeVersion: () => 1 },
      adapters: [],
      logger,
    });
    gateway = createGateway({ keys: new MemoryKeys(), providers: registry, usage: { record() {} }, health, logger });
    port = Number(new URL(await gateway.listen({ host: '127.0.0.1', port: 0 })).port);
  });
  afterAll(async () => {
    await gateway.close();
    await registry.close();
  });

  it('answers 503 with no detail; the error goes to the log only', async () => {
    const response = await get(port, '/readyz');
    expect(response.status).toBe(503);
    expect(JSON.parse(response.text)).toEqual({ status: 'not ready', checks: {} });
    expect(response.text).not.toMatch(/ECONNREFUSED|10\.0\.0\.5/);
    expect(logged.join('')).toContain('the readiness check itself failed');
  });
});
