// The real app on a temp data dir for the chat tests: a provider `fake` pointing at the scripted upstream,
// server-everything (the published reference MCP server) in mcp_settings.json, the gateway listening on a free
// loopback port, and the MCP servers started.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { ChatEvent } from '../../shared/bridge/types.js';
import { createApp, type App } from '../../main/app/index.js';
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
