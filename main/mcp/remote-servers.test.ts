// Remote servers (type streamableHttp, or just a url): an SDK server over streamable HTTP on 127.0.0.1.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpManager } from './mcp-manager.js';
import { toolResultText } from './tool-results.js';
import { makeTempDir, removeTempDir, silentLogger, writeSettings } from './test-support.js';

let httpServer: Server;
let baseUrl: string;
let closedPort: number;
const seenHeaders: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  httpServer = createServer(async (request, response) => {
    seenHeaders.push(request.headers);
    if (request.url === '/private') {
      response.writeHead(401).end();
      return;
    }
    // Stateless: a new server and transport per request, as the SDK's examples do.
    const server = new McpServer({ name: 'remote-fixture', version: '1.0.0' });
    server.registerTool('shout', { inputSchema: { text: z.string() } }, ({ text }) => ({
      content: [{ type: 'text', text: text.toUpperCase() }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  // A port that was free a moment ago: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});

afterAll(async () => {
  httpServer.closeAllConnections();
  await new Promise((resolve) => httpServer.close(resolve));
});

describe('remote servers', () => {
  it('connects over streamable HTTP with headers, by type or by url alone, and reports refusals', async () => {
    const dataDir = await makeTempDir();
    await writeSettings(dataDir, {
      typed: {
        type: 'streamableHttp',
        url: `${baseUrl}/mcp`,
        headers: { Authorization: 'Bearer ${env:SWITCHYARD_TEST_TOKEN}' },
      },
      untyped: { url: `${baseUrl}/mcp` },
      private: { type: 'streamableHttp', url: `${baseUrl}/private` },
      closed: { type: 'streamableHttp', url: `http://127.0.0.1:${closedPort}/mcp` },
    });
    const manager = new McpManager({
      dataDir,
      logger: silentLogger,
      watch: false,
      restartPolicy: { maxRestarts: 0 },
      environment: { SWITCHYARD_TEST_TOKEN: 's3cret' },
    });
    try {
      await manager.start();
      const servers = Object.fromEntries((await manager.waitUntilSettled()).map((server) => [server.name, server]));
      expect(servers.typed).toMatchObject({ state: 'connected', transport: 'streamableHttp', toolCount: 1 });
      expect(servers.untyped).toMatchObject({ state: 'connected', toolCount: 1 });
      expect(servers.private).toMatchObject({ state: 'error', message: expect.stringContaining('answered 401') });
      expect(servers.closed).toMatchObject({ state: 'error', message: expect.stringMatching(/connection refused/) });
      expect(seenHeaders.some((headers) => headers.authorization === 'Bearer s3cret')).toBe(true);

      const result = await manager.callTool('typed', 'shout', { text: 'hello' });
      expect(toolResultText(result)).toBe('HELLO');
      const invalid = await manager.callTool('untyped', 'shout', { text: 42 });
      expect(invalid.isError).toBe(true);
      expect(toolResultText(invalid)).toMatch(/^Error:/);
    } finally {
      await manager.stop();
      await removeTempDir(dataDir);
    }
  });
});
