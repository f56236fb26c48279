// The app the hub's tests run against, built as `switchyard serve` builds it: MCP servers from a settings file in a
// temp data dir, every one settled, and the gateway listening on a free port; keys that may use the hub; and the MCP
// SDK's client connected to its /mcp.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pino } from 'pino';
import { createApp, type App } from '../../main/app/index.js';
import type { Gateway } from '../../main/gateway/index.js';
import type { ServerSnapshot } from '../../main/mcp/index.js';
import { writeSettings } from '../../main/mcp/test-support.js';

export interface HubApp {
  app: App;
  gateway: Gateway;
  mcpUrl: URL;
  /** The servers once settled, in the settings' order. */
  servers: ServerSnapshot[];
}

/** The caller closes `app`. */
export async function startHubApp(dataDir: string, servers: Record<string, unknown>): Promise<HubApp> {
  await writeSettings(dataDir, servers);
  const app = createApp({
    dataDir,
    logger: pino({ level: 'silent' }),
    secretStoreMode: 'file',
    env: {},
    localProviders: false,
  });
  await app.mcp.start();
  const settled = await app.mcp.waitUntilSettled();
  const gateway = app.createGateway({ metrics: {} });
  const mcpUrl = new URL('/mcp', await gateway.listen({ host: '127.0.0.1', port: 0 }));
  return { app, gateway, mcpUrl, servers: settled };
}

/** A new gateway key's secret, with `allowed_mcp` as given (null: no right to the hub). */
export async function hubKey(app: App, name: string, allowedMcp: string[] | null): Promise<string> {
  return (await app.keys.create(name, { allowed_mcp: allowedMcp })).key;
}

/** The MCP SDK's client connected to the hub at `mcpUrl` with the key `secret`; the caller closes it. */
export async function connectToHub(mcpUrl: URL, secret: string, clientName: string): Promise<Client> {
  const client = new Client({ name: clientName, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(mcpUrl, {
    requestInit: { headers: { authorization: `Bearer ${secret}` } },
  });
  await client.connect(transport);
  return client;
}
