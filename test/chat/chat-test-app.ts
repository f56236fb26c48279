// The real app on a temp data dir for the chat tests: a provider `fake` pointing at the scripted upstream,
// server-everything (the published reference MCP server) in mcp_settings.json, the gateway listening on a free
// loopback port, and the MCP servers started.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import type { BridgeChannel, BridgeRequest, BridgeResponse } from '../../shared/bridge/contract.js';
import type { BridgeErrorInfo } from '../../shared/bridge/transport.js';
import type { ChatEvent } from '../../shared/bridge/types.js';
import { createApp, type App } from '../../main/app/index.js';
import { createBridgeHandlers, type BridgeHandlers } from '../../main/bridge/index.js';
import { repoRoot } from '../support/cli.js';
import { startScriptedUpstream, type ScriptedUpstream } from './scripted-upstream.js';

export const everythingBin = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

export function everythingSettings(extra: Record<string, unknown> = {}) {
  return { mcpServers: { everything: { command: process.execPath, args: [everythingBin, 'stdio'], ...extra } } };
}

/** A data dir with the provider and the MCP settings, as `switchyard serve` or the app would find it. */
export async function prepareDataDir(upstream: ScriptedUpstream): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-chat-'));
  const setup = createApp({ dataDir, secretStoreMode: 'file', localProviders: false, env: {}, logger: silent });
  try {
    await setup.providers.add({ id: 'fake', kind: 'openai', baseUrl: upstream.baseUrl, apiKey: 'sk-upstream-test' });
  } finally {
    await setup.close();
  }
  fs.writeFileSync(path.join(dataDir, 'mcp_settings.json'), JSON.stringify(everythingSettings(), null, 2));
  return dataDir;
}

const silent = pino({ level: 'silent' });

export interface ChatTestApp {
  app: App;
  upstream: ScriptedUpstream;
  dataDir: string;
  events: ChatEvent[];
  close(): Promise<void>;
}

export async function startChatTestApp(options: { maxSteps?: number } = {}): Promise<ChatTestApp> {
  const upstream = await startScriptedUpstream();
  const dataDir = await prepareDataDir(upstream);
  const app = createApp({
    dataDir,
    secretStoreMode: 'file',
    localProviders: false,
    env: {},
    logger: silent,
    chatMaxSteps: options.maxSteps,
  });
  const gateway = app.createGateway();
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  await app.mcp.start();
  const servers = await app.mcp.waitUntilSettled();
  if (servers[0]?.state !== 'connected') throw new Error(`server-everything did not start: ${JSON.stringify(servers)}`);
  const events: ChatEvent[] = [];
  app.chat.onEvent((event) => events.push(event));
  return {
    app,
    upstream,
    dataDir,
    events,
    async close() {
      await app.close();
      await upstream.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ChatBridge {
  /** The app, once the file's tests run. */
  readonly env: ChatTestApp;
  /** A bridge call as the UI makes it; throws when it fails. */
  call<C extends BridgeChannel>(channel: C, request: BridgeRequest<C>): Promise<BridgeResponse<C>>;
  /** A bridge call that must fail: its error. */
  failure(channel: BridgeChannel, request: unknown): Promise<BridgeErrorInfo>;
}

/** The chat test app with the bridge's handlers over it, started before the file's tests and closed after them. */
export function useChatBridge(): ChatBridge {
  let env: ChatTestApp | undefined;
  let bridge: BridgeHandlers | undefined;
  beforeAll(async () => {
    env = await startChatTestApp();
    bridge = createBridgeHandlers(env.app, { appInfo: () => ({ version: '0.0.0', gatewayUrl: null }) });
  });
  afterAll(async () => {
    bridge?.dispose();
    await env?.close();
  });
  return {
    get env() {
      if (!env) throw new Error('the chat test app has not started');
      return env;
    },
    async call(channel, request) {
      const result = await bridge!.invoke(channel, request);
      if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
      return result.value as BridgeResponse<typeof channel>;
    },
    async failure(channel, request) {
      const result = await bridge!.invoke(channel, request);
      if (result.ok) throw new Error(`${channel} succeeded: ${JSON.stringify(result.value)}`);
      return result.error;
    },
  };
}
