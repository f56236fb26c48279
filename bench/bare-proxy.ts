// The floor for any Node gateway: node:http in, undici out, the bytes piped both ways, and nothing else — no
// authentication, no validation, no routing, no usage log. The benchmark runs it beside `switchyard serve` so that
// the cost of Switchyard's own work shows as the difference between the two, on the same hop and the same machine.
//
//   node --import tsx bench/bare-proxy.ts <upstream base URL> <provider key>     prints `listening <port>` once ready

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';

const [upstreamBase, providerKey] = process.argv.slice(2);
if (!upstreamBase || !providerKey) throw new Error('usage: bare-proxy.ts <upstream base URL> <provider key>');
const upstreamPath = new URL(upstreamBase).pathname.replace(/\/$/, '');
const agent = new Agent({ keepAliveTimeout: 30_000 });

/** Headers that belong to one connection, not to the message: never forwarded. */
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length']);

function forwarded(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>) {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !hopByHop.has(name)) kept[name] = value;
  }
  return kept;
}

const server = createServer((incoming, outgoing) => {
  // `/v1/chat/completions` (or `/api/v1/…`) → the upstream's base URL + the rest of the path.
  const rest = incoming.url!.replace(/^(\/api)?\/v1/, '');
  request(new URL(upstreamPath + rest, upstreamBase), {
    method: incoming.method as 'POST',
    headers: { ...forwarded(incoming.headers), authorization: `Bearer ${providerKey}` },
    body: incoming,
    dispatcher: agent,
  })
    .then(async (answer) => {
      outgoing.writeHead(answer.statusCode, forwarded(answer.headers));
      await pipeline(answer.body, outgoing);
    })
    .catch(() => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
    });
});

server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void agent.close().then(() => process.exit(0));
});
