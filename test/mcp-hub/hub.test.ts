// The MCP hub as its clients see it: the MCP SDK's own client against the gateway's /mcp (Streamable HTTP, with
// gateway keys) and against `switchyard mcp serve` (stdio), over two real servers (server-everything and
// server-filesystem) and a disabled one.

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LATEST_PROTOCOL_VERSION,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../main/app/index.js';
import { createBridgeHandlers } from '../../main/bridge/index.js';
import type { Gateway } from '../../main/gateway/index.js';
import type { McpTool } from '../../shared/bridge/types.js';
import { everythingEntry, filesystemBin, makeTempDir, node, removeTempDir } from '../../main/mcp/test-support.js';
import { repoRoot, runCli } from '../support/cli.js';
import { waitFor } from '../support/wait-for.js';
import { connectToHub, hubKey, startHubApp } from './hub-app.js';

let dataDir: string;
let filesDir: string;
let app: App;
let gateway: Gateway;
let mcpUrl: URL;
const openClients: Client[] = [];

beforeAll(async () => {
  dataDir = await makeTempDir();
  filesDir = await makeTempDir();
  await writeFile(path.join(filesDir, 'notes.txt'), 'remember the milk\n');
  const started = await startHubApp(dataDir, {
    everything: everythingEntry({ disabledTools: ['get-env'] }),
    files: { command: node, args: [filesystemBin, filesDir] },
    off: everythingEntry({ disabled: true }),
  });
  ({ app, gateway, mcpUrl } = started);
  expect(started.servers.map((server) => [server.name, server.state])).toEqual([
    ['everything', 'connected'],
    ['files', 'connected'],
    ['off', 'disabled'],
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(openClients.map((client) => client.close().catch(() => undefined)));
  await app?.close();
  await removeTempDir(dataDir);
  await removeTempDir(filesDir);
});

async function httpClient(secret: string): Promise<Client> {
  const client = await connectToHub(mcpUrl, secret, 'hub-test');
  openClients.push(client);
  return client;
}

const keyFor = (name: string, allowedMcp: string[] | null) => hubKey(app, name, allowedMcp);

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

describe('the hub at /mcp', () => {
  it('offers the tools of every enabled server as server__tool, and calls them', async () => {
    const client = await httpClient(await keyFor('everything', ['*']));
    expect(client.getServerVersion()?.name).toBe('switchyard-mcp-hub');
    // The newest revision the SDK speaks is what a current client and the hub agree on.
    expect((client.transport as StreamableHTTPClientTransport).protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    const names = await toolNames(client);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum', 'files__read_text_file']));
    expect(names.filter((name) => name.startsWith('off__'))).toEqual([]);
    expect(names).not.toContain('everything__get-env');
    await expect(client.callTool({ name: 'everything__get-env', arguments: {} })).rejects.toThrow(/no tool/);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);

    const echoed = await client.callTool({ name: 'everything__echo', arguments: { message: 'hi hub' } });
    expect(textOf(echoed)).toBe('Echo: hi hub');
    const read = await client.callTool({
      name: 'files__read_text_file',
      arguments: { path: path.join(filesDir, 'notes.txt') },
    });
    expect(textOf(read)).toContain('remember the milk');
  });

  it('records each tool call with its key, server, tool, duration and error', async () => {
    const secret = await keyFor('recorded', ['files']);
    const keyId = app.keys.list().find((key) => key.name === 'recorded')!.id;
    const client = await httpClient(secret);
    await client.callTool({ name: 'files__read_text_file', arguments: { path: path.join(filesDir, 'absent.txt') } });
    const [call] = await app.store.mcpCalls.recent(1);
    expect(call).toMatchObject({ keyId, keyName: 'recorded', client: 'hub-test', server: 'files' });
    expect(call!.tool).toBe('read_text_file');
    expect(call!.durationMs).toBeGreaterThanOrEqual(0);
    expect(call!.error).toMatch(/^Error: .*ENOENT|not found|no such file/i);
    // Counted in the gateway's metrics too, by server and outcome, without the error's text.
    const scraper = await app.keys.create('scraper', { metrics: true });
    const metrics = await fetch(new URL('/metrics', mcpUrl), { headers: { authorization: `Bearer ${scraper.key}` } });
    const text = await metrics.text();
    expect(text).toContain('switchyard_mcp_tool_calls_total{server="files",outcome="error"} 1');
    expect(text).toContain('switchyard_mcp_tool_calls_total{server="files",outcome="ok"} 1');
    expect(text).not.toContain('absent.txt');
  });

  it('shows a key limited to one server only that server, and refuses its other tools', async () => {
    const client = await httpClient(await keyFor('files only', ['files']));
    const names = await toolNames(client);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((name) => name.startsWith('files__'))).toBe(true);
    await expect(client.callTool({ name: 'everything__echo', arguments: { message: 'x' } })).rejects.toThrow(
      /no tool "everything__echo"/,
    );
  });

  it("shows a key limited to one tool only that tool, and none of the server's resources", async () => {
    const client = await httpClient(await keyFor('echo only', ['everything__echo']));
    expect(await toolNames(client)).toEqual(['everything__echo']);
    expect((await client.listResources()).resources).toEqual([]);
  });

  it('passes on the resources and prompts of the servers a key may use', async () => {
    const client = await httpClient(await keyFor('resources', ['everything']));
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const read = await client.readResource({ uri: resources[0]!.uri });
    expect(read.contents[0]?.uri).toBe(resources[0]!.uri);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('everything__simple-prompt');
    const prompt = await client.getPrompt({ name: 'everything__simple-prompt' });
    expect(prompt.messages.length).toBeGreaterThan(0);
  });

  it('answers 401 in the error envelope without a key, and 403 to a key without the MCP right', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
      });
    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 401, metadata: {} } });

    const plain = await post({ authorization: `Bearer ${await keyFor('plain', null)}` });
    expect(plain.status).toBe(403);
    const body = (await plain.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(403);
    expect(body.error.message).toContain('--allow-mcp');
  });

  it('is left out of a gateway worker, whose sessions could not follow a client to another worker', () => {
    const worker = app.createGateway({ mcpHub: false });
    expect(worker.routes().some((route) => route.url === '/mcp')).toBe(false);
    expect(
      gateway
        .routes()
        .filter((route) => route.url === '/mcp')
        .map((route) => route.method),
    ).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE']));
  });

  it('lets a page of an allowed origin read its session id', async () => {
    const cors = app.createGateway({ security: { corsOrigins: ['http://localhost:6274'] } });
    const corsUrl = new URL('/mcp', await cors.listen({ host: '127.0.0.1', port: 0 }));
    const answer = await fetch(corsUrl, {
      method: 'POST',
      headers: {
        origin: 'http://localhost:6274',
        authorization: `Bearer ${await keyFor('inspector', ['*'])}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'inspector', version: '1' } },
      }),
    });
    expect(answer.status).toBe(200);
    await answer.body?.cancel();
    expect(answer.headers.get('mcp-session-id')).toBeTruthy();
    expect(answer.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
    await cors.close(0);
  });

  it("does not let another key use a session's id", async () => {
    const owner = await httpClient(await keyFor('owner', ['*']));
    const sessionId = (owner.transport as StreamableHTTPClientTransport).sessionId!;
    const answer = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${await keyFor('intruder', ['*'])}`,
        'mcp-session-id': sessionId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(answer.status).toBe(404);
  });

  it('keeps working for its client when a server restarts under it, and says the tools changed', async () => {
    const client = await httpClient(await keyFor('restart', ['everything']));
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    expect(textOf(await client.callTool({ name: 'everything__echo', arguments: { message: 'before' } }))).toBe(
      'Echo: before',
    );
    await app.mcp.restart('everything');
    await app.mcp.waitUntilSettled();
    await waitFor(() => changes > 0, { what: 'a tools/list_changed notification' });
    expect(textOf(await client.callTool({ name: 'everything__echo', arguments: { message: 'after' } }))).toBe(
      'Echo: after',
    );
  });
});

describe('the MCP screen', () => {
  it('lists each tool with whether it is on and what its definition costs per request, and switches it', async () => {
    const bridge = createBridgeHandlers(app, { appInfo: () => ({ version: 'test', gatewayUrl: null }) });
    const listed = await bridge.invoke('mcp:list-tools', { name: 'everything' });
    expect(listed.ok).toBe(true);
    const tools = (listed as { value: { tools: McpTool[] } }).value.tools;
    expect(tools.find((tool) => tool.name === 'get-env')).toMatchObject({ disabled: true });
    const echo = tools.find((tool) => tool.name === 'echo')!;
    expect(echo.disabled).toBe(false);
    // {"type":"function","function":{"name":"everything__echo","description":…,"parameters":…}}: dozens of tokens.
    expect(echo.schemaTokens).toBeGreaterThan(20);
    expect(echo.schemaTokens).toBeLessThan(200);

    await bridge.invoke('mcp:set-tool-disabled', { name: 'everything', tool: 'echo', disabled: true });
    const client = await httpClient(await keyFor('after disabling', ['everything']));
    expect(await toolNames(client)).not.toContain('everything__echo');
    await bridge.invoke('mcp:set-tool-disabled', { name: 'everything', tool: 'echo', disabled: false });
    expect(await toolNames(client)).toContain('everything__echo');
    bridge.dispose();
  });
});

describe('switchyard mcp serve, as switchyard connect writes it for Claude Desktop', () => {
  it('offers the same tools over stdio, without a key, and records its calls', async () => {
    const home = await makeTempDir();
    const connected = await runCli(['connect', 'claude-desktop', '--data-dir', dataDir], {
      env: { HOME: home, XDG_CONFIG_HOME: '' },
    });
    expect(connected.code, connected.stderr).toBe(0);
    expect(connected.stdout).toContain('mcp serve');
    const config = JSON.parse(await readFile(path.join(home, '.config/Claude/claude_desktop_config.json'), 'utf8')) as {
      mcpServers: { switchyard: { command: string; args: string[] } };
    };
    await removeTempDir(home);
    const entry = config.mcpServers.switchyard;
    expect(entry.command).toBe(process.execPath);
    expect(entry.args.slice(-4)).toEqual(['mcp', 'serve', '--data-dir', dataDir]);

    // Started as Claude Desktop starts it: the entry's command and arguments, nothing else.
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      cwd: repoRoot,
      env: {
        ...(process.env as Record<string, string>),
        SWITCHYARD_SECRET_STORE: 'file',
        SWITCHYARD_LOG_LEVEL: 'warn',
      },
      stderr: 'pipe',
    });
    await client.connect(transport);
    openClients.push(client);
    // The servers start with the command; the first list waits for them, since many clients list only once.
    const names = await toolNames(client);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'files__read_text_file']));
    expect(names.filter((name) => name.startsWith('off__'))).toEqual([]);
    expect(names).not.toContain('everything__get-env');
    expect(textOf(await client.callTool({ name: 'everything__echo', arguments: { message: 'stdio' } }))).toBe(
      'Echo: stdio',
    );
    const read = await client.callTool({
      name: 'files__read_text_file',
      arguments: { path: path.join(filesDir, 'notes.txt') },
    });
    expect(textOf(read)).toContain('remember the milk');
    await waitFor(async () => (await app.store.mcpCalls.recent(1))[0]?.client === 'stdio-test', {
      what: 'the stdio call row',
    });
    expect((await app.store.mcpCalls.recent(1))[0]).toMatchObject({
      keyId: null,
      server: 'files',
      tool: 'read_text_file',
    });
    await client.close();
  }, 60_000);
});
