// How fast a caller's disconnect reaches the upstream: an upstream in this process streams forever; a caller in
// this process reads the first chunk through the gateway and destroys its connection; the upstream notes when
// its request closed. One clock for both ends, so the difference is exact.

import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class ProbeUpstream {
  private readonly server: Server;
  private readonly closedAt: ((at: number) => void)[] = [];

  constructor() {
    this.server = createServer((incoming, response) => {
      if (incoming.method === 'GET') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"object":"list","data":[{"id":"forever"}]}');
        return;
      }
      incoming.resume();
      const notify = this.closedAt.shift();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (content: string) =>
        `data: {"id":"p","object":"chat.completion.chunk","created":1,"model":"forever","choices":[{"index":0,"delta":{"content":"${content}"},"finish_reason":null}]}\n\n`;
      response.write(chunk('first'));
      const timer = setInterval(() => response.write(chunk('more')), 20);
      response.once('close', () => {
        clearInterval(timer);
        notify?.(performance.now());
      });
    });
  }

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Resolves with the time the next upstream request closes. */
  nextClose(): Promise<number> {
    return new Promise((resolve) => this.closedAt.push(resolve));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** One trial: ms from the caller destroying its connection to the upstream seeing its request close. */
export async function measureDisconnect(probe: ProbeUpstream, gatewayUrl: string, apiKey: string): Promise<number> {
  const upstreamClosed = probe.nextClose();
  const leftAt = await new Promise<number>((resolve, reject) => {
    const outgoing = request(`${gatewayUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    });
    outgoing.on('error', () => undefined);
    outgoing.on('response', (response) => {
      if (response.statusCode !== 200) reject(new Error(`the probe stream answered ${response.statusCode}`));
      response.once('data', () => {
        const at = performance.now();
        outgoing.destroy();
        resolve(at);
      });
    });
    outgoing.end(JSON.stringify({ model: 'probe/forever', messages: [{ role: 'user', content: 'go on' }] }));
  });
  return (await upstreamClosed) - leftAt;
}
