// Shared by the bridge's tests: a real app on a temp data dir (file secret store, no providers of this machine) with
// its bridge handlers and a fake upstream, made afresh for each test and closed after it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../test/support/fake-openai-upstream.js';
import { createApp, type App } from '../app/index.js';
import type { BridgeChannel, BridgeRequest, BridgeResponse } from '../../shared/bridge/contract.js';
import type { BridgeErrorInfo } from '../../shared/bridge/transport.js';
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

/** A channel's answer through the bridge (validation included); a failure throws with the channel's message. */
export async function invokeOk<C extends BridgeChannel>(
  bridge: BridgeHandlers,
  channel: C,
  request: BridgeRequest<C>,
): Promise<BridgeResponse<C>> {
  const result = await bridge.invoke(channel, request);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as BridgeResponse<C>;
}

/** A channel's failure through the bridge, as the UI gets it; an answer throws. */
export async function invokeFailure(
  bridge: BridgeHandlers,
  channel: BridgeChannel,
  request: unknown,
): Promise<BridgeErrorInfo> {
  const result = await bridge.invoke(channel, request);
  if (result.ok) throw new Error(`${channel} succeeded: ${JSON.stringify(result.value)}`);
  return result.error;
}

/** The servers of the data dir's mcp_settings.json; none when there is no file. */
export function serversOnDisk(dataDir: string): object {
  const file = path.join(dataDir, 'mcp_settings.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: object }).mcpServers : {};
}
