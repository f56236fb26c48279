// The hub over stdio, for clients that only launch processes (`switchyard mcp serve` in Claude Desktop's config).
// The user runs it with their own data dir, so it offers everything: no key, HubAccess.everything().

import type { Readable, Writable } from 'node:stream';
import type { McpManager } from '../mcp-manager.js';
import { HubAccess } from './hub-access.js';
import type { HubOptions } from './hub-server.js';

/** Serves the hub on this process's stdin and stdout; resolves when the client closes the connection. */
export async function serveHubOverStdio(
  manager: McpManager,
  options: HubOptions & { input?: Readable; output?: Writable },
): Promise<void> {
  // Loaded here, not with the module: every process that imports main/mcp would otherwise load the MCP SDK.
  const [{ StdioServerTransport }, { createHubSession }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('./hub-server.js'),
  ]);
  const session = createHubSession(manager, { keyId: null, keyName: null, access: HubAccess.everything() }, options);
  const input = options.input ?? process.stdin;
  const transport = new StdioServerTransport(input, options.output ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    input.once('end', resolve);
  });
  await session.server.connect(transport);
  try {
    await closed;
  } finally {
    session.dispose();
    await session.server.close().catch(() => undefined);
  }
}
