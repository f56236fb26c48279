// The metrics right on both engines: a key created with it reads GET /metrics, a management key does without it,
// any other key gets 403 and no key 401, in the specification's error shape; taking the right away refuses the key
// at its next scrape. Through the app's own gateway over a real SQLite file and a real PostgreSQL.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../main/app/create-app.js';
import { useStoreEngines } from '../support/postgres-store.js';

const engines = useStoreEngines('switchyard-metrics-right-');
const apps: App[] = [];
const folders: string[] = [];

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

describe.each(engines)('the metrics right on $name', (engine) => {
  it('lets a key with the right or the management right read /metrics, and refuses the others', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-metrics-app-'));
    folders.push(dataDir);
    const store = await engine.open();
    const app = createApp({ dataDir, store, localProviders: false, logger: pino({ enabled: false }) });
    apps.push(app);
    const gateway = app.createGateway({ metrics: {} });
    const scraper = await app.keys.create('prometheus', { metrics: true });
    const admin = await app.keys.create('admin', { management: true });
    const plain = await app.keys.create('app');
    expect(app.keys.get(scraper.id)).toMatchObject({ metrics: true, management: false });
    expect(app.keys.get(plain.id)).toMatchObject({ metrics: false });

    const scrape = (secret?: string) =>
      gateway.server.inject({
        method: 'GET',
        url: '/metrics',
        headers: secret ? { authorization: `Bearer ${secret}` } : {},
      });
    for (const allowed of [scraper.key, admin.key]) {
      const response = await scrape(allowed);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('# TYPE switchyard_in_flight_requests gauge');
    }
    const refused = await scrape(plain.key);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: { code: 403, message: expect.stringContaining('--allow-metrics'), metadata: {} },
    });
    const anonymous = await scrape();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ error: { code: 401, metadata: {} } });

    await app.keys.update(scraper.id, { metrics: false });
    expect((await scrape(scraper.key)).statusCode).toBe(403);
    await app.keys.update(plain.id, { metrics: true });
    expect((await scrape(plain.key)).statusCode).toBe(200);
  });
});
