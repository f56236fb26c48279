// A tiny MCP server for the cases the published servers cannot show: a tool list split into pages,
// tools/list_changed, non-protocol text on stdout, failing before the handshake, and a slow start (it speaks MCP
// only once the file given to --wait-for exists, so that a test decides when it has started). With --relays it
// also logs (tool `log`, the level set noted on stderr) and has a tool that runs until cancelled (`wait`, the
// cancellation noted on stderr), for what the hub passes on.
//   node fixture-server.mjs [--noise] [--noise-only] [--fail-early] [--wait-for FILE] [--relays]

import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const flags = new Set(process.argv.slice(2));
const waitFor = process.argv[process.argv.indexOf('--wait-for') + 1];

if (flags.has('--fail-early')) {
  process.stderr.write('fixture: starting\nfatal: FIXTURE_API_KEY is not set\n');
  process.exit(2);
}
if (flags.has('--noise') || flags.has('--noise-only')) {
  process.stdout.write('Server listening on http://localhost:3000\n');
}
if (flags.has('--wait-for')) {
  process.stderr.write(`fixture: waiting for ${waitFor}\n`);
  while (!existsSync(waitFor)) await sleep(20);
}
if (flags.has('--noise-only')) {
  // Like an HTTP server started as if it spoke stdio: it never answers.
  setInterval(() => {}, 1_000);
} else {
  const pageSize = 2;
  const tools = ['alpha', 'beta', 'gamma', 'delta', 'add-tool'].map(toolNamed);
  const relays = flags.has('--relays');
  if (relays) tools.push(toolNamed('log'), toolNamed('wait'));
  const capabilities = { tools: { listChanged: true }, ...(relays ? { logging: {} } : {}) };
  const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities });
  let level;
  if (relays) {
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      level = request.params.level;
      process.stderr.write(`fixture: log level ${level}\n`);
      return {};
    });
  }

  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const next = start + pageSize;
    return { tools: tools.slice(start, next), ...(next < tools.length ? { nextCursor: String(next) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (relays && request.params.name === 'log') {
      // Sent whatever the level: the hub must filter for clients that asked for less.
      const { level: messageLevel, data } = request.params.arguments;
      await server.notification({ method: 'notifications/message', params: { level: messageLevel, data } });
      return { content: [{ type: 'text', text: `logged at ${messageLevel}; level set: ${level ?? 'none'}` }] };
    }
    if (relays && request.params.name === 'wait') {
      process.stderr.write('fixture: wait started\n');
      await new Promise((resolve) => extra.signal.addEventListener('abort', resolve, { once: true }));
      process.stderr.write(`fixture: wait cancelled (${String(extra.signal.reason)})\n`);
      return { content: [{ type: 'text', text: 'cancelled' }] };
    }
    if (request.params.name === 'add-tool') {
      tools.push(toolNamed(`added-${tools.length}`));
      await server.sendToolListChanged();
      return { content: [{ type: 'text', text: 'added' }] };
    }
    return { content: [{ type: 'text', text: `called ${request.params.name}` }] };
  });
  await server.connect(new StdioServerTransport());
  process.stderr.write('fixture: ready\n');
}

function toolNamed(name) {
  return { name, description: `The ${name} tool`, inputSchema: { type: 'object', properties: {} } };
}
