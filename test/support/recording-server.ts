// A small HTTP server on 127.0.0.1 that records every request (method, URL, headers, JSON body) and hands it to a
// handler. The fake Anthropic and Gemini servers are built on it.

import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | null;
  /** Set when the connection closed before the response ended (the gateway tore the request down). */
  closedEarly: boolean;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => Promise<void> | void;

export class RecordingServer {
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;

  constructor(private readonly handler: Handler) {}

  /** Starts listening; resolves with `http://127.0.0.1:<port>`. */
  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
      closedEarly: false,
    };
    this.requests.push(recorded);
    response.on('close', () => {
      if (!response.writableFinished) recorded.closedEarly = true;
    });
    await this.handler(recorded, response);
  }
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

export function openEventStream(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
}

/** Writes a recorded SSE body in a few pieces, cut inside events, as a network would deliver it. */
export async function replay(response: ServerResponse, body: string, { end = true } = {}): Promise<void> {
  const size = Math.ceil(body.length / 5);
  for (let start = 0; start < body.length; start += size) {
    response.write(body.slice(start, start + size));
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (end) response.end();
}
