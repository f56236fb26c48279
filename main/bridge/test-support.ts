// Shared by the bridge's tests: a real app on a temp data dir (file secret store, no providers of this machine) with
// its bridge handlers and a fake upstream, made afresh for each test and closed after it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../test/support/fake-openai-upstream.js';
import { createApp, type App } from '../app/index.js';
import { createBridgeHandlers, type BridgeHandlers } from './create-bridge-handlers.js';

export interface BridgeApp {
  dataDir: string;
  app: App;
  bridge: BridgeHandlers;
  upstream: FakeUpstream;
}

/** Registers the making (handing it to `made`) and the closing around each test of the current file or block. */
export function useBridgeApp(
  made: (started: BridgeApp) => void,
  { models, gatewayUrl = null }: { models: string[]; gatewayUrl?: string | null },
): void {
  let started: Partial<BridgeApp> = {};
  beforeEach(async () => {
    started = { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-bridge-')) };
    started.upstream = await startFakeUpstream({ models });
    started.app = createApp({
      dataDir: started.dataDir!,
      secretStoreMode: 'file',
      localProviders: false,
      env: {},
      logger: pino({ level: 'silent' }),
    });
    started.bridge = createBridgeHandlers(started.app, { appInfo: () => ({ version: '0.0.0', gatewayUrl }) });
    made(started as BridgeApp);
  });
  afterEach(async () => {
    started.bridge?.dispose();
    await started.app?.close();
    await started.upstream?.close();
    if (started.dataDir) fs.rmSync(started.dataDir, { recursive: true, force: true });
  });
}
