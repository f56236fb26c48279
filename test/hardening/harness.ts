// The real gateway (createGateway + ProviderRegistry + the OpenAI adapter with short upstream timeouts) in front
// of an upstream that misbehaves on request: the model name picks the fault. Every upstream request is recorded
// with the time its connection closed, so tests can tell that the gateway let go of it.

import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pino, type Logger } from 'pino';
import type { ApiKeyInfo, ProviderInfo, UsageRecord } from '../../shared/api/index.js';
import { createGateway, type Gateway, type GatewayKeys, type GatewayOptions } from '../../main/gateway/index.js';
import { createOpenAIAdapter, ProviderRegistry, type ProviderSource } from '../../main/providers/index.js';

export const callerSecret = 'sk-sy-v1-hardening-caller-secret';
export const upstreamSecret = 'sk-upstream-hardening-0123456789abcdef';

/** What the upstream does, by model name. */
export const faults = {
  /** A normal stream (three content chunks) or completion. */
  ok: 'ok',
  /** 200 stream of 1000 chunks, one every 20 ms. */
  slow: 'slow',
  /** 200 stream of 50 chunks, one every 20 ms (about a second). */
  steady: 'steady',
  /** Accepts the connection and the request, never answers. */
  hangHeaders: 'hang-headers',
  /** Sends the headers and one chunk, then nothing. */
  hangMidStream: 'hang-mid-stream',
  /** A stream whose second event is not JSON. */
  garbage: 'garbage',
  /** 200 with `content-type: application/json` and a body that is not JSON. */
  garbageJson: 'garbage-json',
  /** A stream of random bytes, invalid UTF-8 included. */
  binary: 'binary',
  /** One chunk, then the connection is reset. */
  reset: 'reset',
  /** 401 whose message quotes the Authorization header (as OpenAI's does). */
  echoKey: 'echo-key',
  /** A stream whose error event quotes the Authorization header. */
  echoKeyStream: 'echo-key-stream',
} as const;

export interface UpstreamRequest {
  model: string;
  stream: boolean;
  receivedAt: number;
  /** performance.now() when the upstream saw the connection close or the response end. */
  closedAt: number | null;
  closed: Promise<number>;
  /** The connection closed before the fake had sent all of its answer: the gateway let go of it. */
  closedEarly: boolean;
}

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  const payload = { id: 'chatcmpl-h', object: 'chat.completion.chunk', created: 1, model, choices: [] as unknown[] };
  payload.choices.push({ index: 0, delta, finish_reason: finish });
  return `data: ${JSON.stringify(payload)}\n\n`;
}

const completion = (model: string) =>
  JSON.stringify({
    id: 'chatcmpl-h',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: 'fine' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
  });

export class FaultUpstream {
  readonly requests: UpstreamRequest[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;

  /** Sockets the upstream has open right now. */
  get openSockets(): number {
    return this.sockets.size;
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => this.handle(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    if (request.method === 'GET' && request.url?.endsWith('/models')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'list', data: Object.values(faults).map((id) => ({ id })) }));
      return;
    }
    const pieces: Buffer[] = [];
    request.on('data', (piece: Buffer) => pieces.push(piece));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(pieces).toString('utf8')) as { model: string; stream?: boolean };
      let markClosed!: (at: number) => void;
      const record: UpstreamRequest = {
        model: body.model,
        stream: body.stream === true,
        receivedAt: performance.now(),
        closedAt: null,
        closed: new Promise((resolve) => (markClosed = resolve)),
        closedEarly: false,
      };
      this.requests.push(record);
      response.once('close', () => {
        record.closedEarly = !response.writableFinished;
        record.closedAt = performance.now();
        markClosed(record.closedAt);
      });
      this.answer(body.model, record.stream, request, response);
    });
  }

  private answer(model: string, stream: boolean, request: IncomingMessage, response: ServerResponse): void {
    const authorization = String(request.headers.authorization);
    const openStream = () => response.writeHead(200, { 'content-type': 'text/event-stream' });
    switch (model) {
      case faults.ok:
        if (!stream) {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(completion(model));
          return;
        }
        openStream();
        response.write(chunk(model, { role: 'assistant', content: 'Hel' }));
        response.write(chunk(model, { content: 'lo' }));
        response.write(chunk(model, {}, 'stop'));
        response.end('data: [DONE]\n\n');
        return;
      case faults.slow:
      case faults.steady: {
        openStream();
        const chunks = model === faults.slow ? 1000 : 50;
        let sent = 0;
        const timer = setInterval(() => {
          response.write(chunk(model, sent === 0 ? { role: 'assistant', content: 'a' } : { content: 'a' }));
          sent += 1;
          if (sent < chunks) return;
          clearInterval(timer);
          response.write(chunk(model, {}, 'stop'));
          response.end('data: [DONE]\n\n');
        }, 20);
        response.once('close', () => clearInterval(timer));
        return;
      }
      case faults.hangHeaders:
        return;
      case faults.hangMidStream:
        openStream();
        response.write(chunk(model, { role: 'assistant', content: 'Still' }));
        return;
      case faults.garbage:
        openStream();
        response.write(chunk(model, { role: 'assistant', content: 'Partial' }));
        response.end('data: {"choices": [{"delta": {{{ this is not JSON\n\n');
        return;
      case faults.garbageJson:
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('<html>definitely not JSON</html>');
        return;
      case faults.binary: {
        openStream();
        const bytes = Buffer.alloc(4096);
        for (let index = 0; index < bytes.length; index += 1) bytes[index] = (index * 151 + 7) % 256;
        response.end(Buffer.concat([Buffer.from('data: '), bytes, Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0x0a, 0x0a])]));
        return;
      }
      case faults.reset:
        openStream();
        response.write(chunk(model, { role: 'assistant', content: 'Cut' }));
        setTimeout(() => response.socket?.resetAndDestroy(), 20);
        return;
      case faults.echoKey:
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${authorization}` } }));
        return;
      case faults.echoKeyStream:
        openStream();
        response.end(`data: ${JSON.stringify({ error: { message: `Key ${authorization} was revoked` } })}\n\n`);
        return;
      default:
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `no model ${model}` } }));
    }
  }
}

export class MemoryKeys implements GatewayKeys {
  private readonly keys = new Map<string, ApiKeyInfo>();

  add(id: string, secret: string): void {
    const created_at = '2026-01-01T00:00:00.000Z';
    this.keys.set(secret, { id, name: id, label: 'sk-sy-v1-…', created_at, last_used_at: null });
  }
  authenticate(secret: string): ApiKeyInfo | null {
    return this.keys.get(secret) ?? null;
  }
  list(): ApiKeyInfo[] {
    return [...this.keys.values()];
  }
  delete(id: string): boolean {
    for (const [secret, key] of this.keys) if (key.id === id) return this.keys.delete(secret);
    return false;
  }
}

export interface HardeningHarness {
  upstream: FaultUpstream;
  gateway: Gateway;
  /** `http://127.0.0.1:<port>/api/v1` */
  baseURL: string;
  port: number;
  keys: MemoryKeys;
  usage: UsageRecord[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  gateway?: GatewayOptions;
  /** Upstream headers and body timeouts (ms). Default 400. */
  upstreamTimeoutMs?: number;
  /** Address to listen on. Default 127.0.0.1. */
  host?: string;
  logger?: Logger;
  /** Adds to the server before it listens (routes must be registered by then), e.g. the UI's bridge. */
  beforeListen?: (gateway: Gateway) => Promise<void>;
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startHardeningHarness(options: HarnessOptions = {}): Promise<HardeningHarness> {
  const upstream = new FaultUpstream();
  const upstreamUrl = await upstream.start();
  const created_at = '2026-01-01T00:00:00.000Z';
  const providers: ProviderInfo[] = [
    { id: 'fault', kind: 'openai', base_url: upstreamUrl, has_api_key: true, created_at },
    {
      id: 'down',
      kind: 'openai',
      base_url: `http://127.0.0.1:${await closedPort()}/v1`,
      has_api_key: false,
      created_at,
    },
  ];
  const source: ProviderSource = {
    listProviders: () => providers,
    getApiKey: async (id) => (id === 'fault' ? upstreamSecret : null),
    changeVersion: () => 1,
  };
  const logger = options.logger ?? pino({ level: 'silent' });
  const timeout = options.upstreamTimeoutMs ?? 400;
  const registry = new ProviderRegistry({
    source,
    adapters: [createOpenAIAdapter({ headersTimeoutMs: timeout, bodyTimeoutMs: timeout })],
    logger,
  });
  const keys = new MemoryKeys();
  keys.add('key-1', callerSecret);
  const usage: UsageRecord[] = [];
  const gateway = createGateway(
    { keys, providers: registry, usage: { record: (row) => usage.push(row) }, logger },
    { retry: { maxRetries: 0 }, ...options.gateway },
  );
  await options.beforeListen?.(gateway);
  const baseURL = await gateway.listen({ host: options.host ?? '127.0.0.1', port: 0 });
  return {
    upstream,
    gateway,
    baseURL,
    port: Number(new URL(baseURL).port),
    keys,
    usage,
    async close() {
      await gateway.close(500);
      await registry.close();
      await upstream.close();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * A request with exactly these bytes on the wire (no URL normalisation, any header, any body). The head should
 * say `Connection: close`: the answer is read until the server closes the connection.
 */
export async function rawHttp(port: number, head: string, body: Buffer | string = ''): Promise<RawResponse> {
  const { connect } = await import('node:net');
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const payload = Buffer.isBuffer(body) ? body : Buffer.from(body);
  // write, not end: a half-closed connection may be dropped before a slow answer.
  socket.write(Buffer.concat([Buffer.from(head), payload]));
  const pieces: Buffer[] = [];
  socket.on('data', (piece: Buffer) => pieces.push(piece));
  await once(socket, 'close');
  return parseResponse(Buffer.concat(pieces).toString('utf8'));
}

/** One HTTP/1.1 answer as it came off the wire (a chunked body is reassembled). */
export function parseResponse(text: string): RawResponse {
  const headEnd = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = text.slice(0, headEnd).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let bodyText = text.slice(headEnd + 4);
  if (headers['transfer-encoding'] === 'chunked') bodyText = dechunk(bodyText);
  return { status: Number(statusLine.split(' ')[1]), headers, text: bodyText };
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

/** The body of an error in the spec's envelope, or throws saying why it is not one. */
export function expectErrorShape(status: number, text: string): { code: number; message: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`status ${status}: the body is not JSON: ${text.slice(0, 200)}`);
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; metadata?: unknown } }).error;
  if (
    !error ||
    error.code !== status ||
    typeof error.message !== 'string' ||
    typeof error.metadata !== 'object' ||
    error.metadata === null
  ) {
    throw new Error(`status ${status}: not the error envelope: ${text.slice(0, 200)}`);
  }
  return { code: error.code, message: error.message };
}

/** Polls until `check` is true; throws after a generous deadline (tests never assert on timing). */
export async function eventually(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The SSE `data:` payloads of a stream body. */
export function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .map((event) => event.trim())
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length));
}
