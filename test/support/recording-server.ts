// A small HTTP server on 127.0.0.1 that records every request (method, URL, headers, JSON body, when it came and
// when its connection closed) and answers it with a `Reply`: a plain description of what goes on the wire, delays
// and faults included. The fake OpenAI, Anthropic and Gemini upstreams are built on it: each routes its protocol
// and picks a step for each generation request — the next one queued with `script()`, else the one set for its
// model with `on()`, else `fallback` — and a step turns the request into a reply.

import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** The JSON body; null when there was none or it was not JSON. */
  body: Record<string, unknown> | null;
  /** performance.now() when the whole request had arrived. */
  at: number;
  /** Set when the connection closed before the response ended (the caller tore the request down). */
  closedEarly: boolean;
  /** performance.now() when the response ended or its connection closed; null while it is open. */
  closedAt: number | null;
  /** Resolves with `closedAt`. */
  closed: Promise<number>;
  /** Bytes of the answer's body handed to the connection so far (what the caller's side holds or has read). */
  sent: number;
}

/** What to send. Everything is optional: `{}` is an empty 200. */
export interface Reply {
  /** Accept the request and never answer: the caller's timeouts must fire. */
  silent?: boolean;
  /** Wait this long before the status line. */
  headersAfterMs?: number;
  /** Default 200. */
  status?: number;
  headers?: OutgoingHttpHeaders;
  /** The body, written piece by piece: a piece is one write, so a network sees it as it would a real one. */
  chunks?: readonly (string | Buffer)[];
  /** Wait this long after the headers (which are then sent at once) before the first piece. */
  firstChunkAfterMs?: number;
  /** Wait this long between pieces (0: yield to the event loop). Unset: write them back to back. */
  chunkDelayMs?: number;
  /**
   * After the pieces: end the response (default); keep it open until the caller goes away; or cut the connection
   * (`destroy`) or reset it (`reset`), 20 ms later so that what was written reaches the caller first.
   */
  then?: 'end' | 'hang' | 'destroy' | 'reset';
  /**
   * After the pieces, this one over and over until the caller goes away, each write as soon as the connection has
   * taken the one before (an endless stream, as fast as the caller reads it); `then` does not apply.
   */
  repeat?: string | Buffer;
}

/** What to answer one request with. */
export type Step = (request: RecordedRequest) => Reply | Promise<Reply>;

/** A model listing entry: an id, or a whole entry in the protocol's shape. */
export type ModelEntry = string | Record<string, unknown>;

export interface RecordingServerOptions {
  /** What the protocol's model listing names. Null: the listing fails (a server still starting). */
  models?: readonly ModelEntry[] | null;
  /** The API key requests must carry, in the protocol's header; unset: any. */
  apiKey?: string;
  /** The step per model name. */
  byModel?: Record<string, Step>;
  /** The step for a generation request that nothing else claims. */
  fallback?: Step;
  /**
   * Which requests to keep: all (default), none (a benchmark's upstream answering hundreds of thousands), or those
   * the function accepts.
   */
  record?: boolean | ((request: RecordedRequest) => boolean);
}

export class RecordingServer {
  readonly requests: RecordedRequest[] = [];
  /** How many connections callers opened: a caller that pools its connections opens few. */
  connections = 0;
  private readonly sockets = new Set<Socket>();
  /** The step for a generation request that nothing else claims. */
  fallback: Step | undefined;
  models: readonly ModelEntry[] | null;
  protected readonly apiKey: string | undefined;
  private server: Server | null = null;
  private readonly record: (request: RecordedRequest) => boolean;
  private readonly queue: Step[] = [];
  private readonly byModel = new Map<string, Step>();

  /** `route` answers every request; protocol fakes call `stepFor` from it for generation requests. */
  constructor(
    private readonly route: Step,
    options: RecordingServerOptions = {},
  ) {
    const record = options.record ?? true;
    this.record = typeof record === 'function' ? record : () => record;
    this.fallback = options.fallback;
    this.models = options.models === undefined ? [] : options.models;
    this.apiKey = options.apiKey;
    for (const [model, step] of Object.entries(options.byModel ?? {})) this.byModel.set(model, step);
  }

  /** Queues steps for the next generation requests, whatever their model. */
  script(...steps: Step[]): this {
    this.queue.push(...steps);
    return this;
  }

  /** Sets the step for every generation request naming `model`. */
  on(model: string, step: Step): this {
    this.byModel.set(model, step);
    return this;
  }

  /** The ids of `models`. */
  protected modelIds(): string[] {
    return (this.models ?? []).map((entry) => (typeof entry === 'string' ? entry : String(entry.id)));
  }

  protected stepFor(model: string): Step | undefined {
    return this.queue.shift() ?? this.byModel.get(model) ?? this.fallback;
  }

  /** Sockets open right now. */
  get openSockets(): number {
    return this.sockets.size;
  }

  /** Starts listening; resolves with `http://127.0.0.1:<port>`. */
  async start(port = 0): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.keepAliveTimeout = 60_000;
    this.server.on('connection', (socket: Socket) => {
      this.connections += 1;
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  /** Requests whose connection closed before their answer ended. */
  abortedCount(): number {
    return this.requests.filter((request) => request.closedEarly).length;
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => void this.respond(request, Buffer.concat(chunks).toString('utf8'), response));
  }

  private async respond(request: IncomingMessage, body: string, response: ServerResponse): Promise<void> {
    let markClosed!: (at: number) => void;
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: parseBody(body),
      at: performance.now(),
      closedEarly: false,
      closedAt: null,
      closed: new Promise((resolve) => (markClosed = resolve)),
      sent: 0,
    };
    if (this.record(recorded)) this.requests.push(recorded);
    response.once('close', () => {
      if (!response.writableFinished) recorded.closedEarly = true;
      recorded.closedAt = performance.now();
      markClosed(recorded.closedAt);
    });
    await sendReply(response, await this.route(recorded), (bytes) => (recorded.sent += bytes));
  }
}

function parseBody(text: string): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** `pause(ms)` resolves after `ms`, or as soon as the response closes (one listener for all the pauses). */
function pauses(response: ServerResponse): (ms: number) => Promise<void> {
  let wake: (() => void) | undefined;
  response.once('close', () => wake?.());
  return (ms) => {
    if (response.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  };
}

/** Resolves when the response has taken what was written ('drain'), or has closed. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/** Writes `piece` until the response closes, never more than the connection takes (see Reply.repeat). */
async function repeatUntilClosed(response: ServerResponse, piece: Buffer, sent: (bytes: number) => void) {
  while (!response.destroyed) {
    // A burst at a time, then a turn of the event loop for everything else in this process.
    for (let count = 0; count < 64 && !response.destroyed; count += 1) {
      sent(piece.length);
      if (!response.write(piece)) {
        await drained(response);
        break;
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Sends a reply; resolves once it is done (ended, cut, or left hanging until the caller went away). `sent` hears
 * of every piece of the body written.
 */
export async function sendReply(
  response: ServerResponse,
  reply: Reply,
  sent: (bytes: number) => void = () => {},
): Promise<void> {
  if (reply.silent) return;
  const pause = pauses(response);
  if (reply.headersAfterMs) await pause(reply.headersAfterMs);
  if (response.destroyed) return;
  response.writeHead(reply.status ?? 200, reply.headers);
  const chunks = reply.chunks ?? [];
  const then = reply.repeat === undefined ? (reply.then ?? 'end') : 'repeat';
  if (reply.firstChunkAfterMs || (chunks.length === 0 && then !== 'end')) response.flushHeaders();
  for (const [index, chunk] of chunks.entries()) {
    const wait = index === 0 ? reply.firstChunkAfterMs : reply.chunkDelayMs;
    if (wait !== undefined && (index > 0 || wait > 0)) await pause(wait);
    if (response.destroyed) return;
    sent(Buffer.byteLength(chunk));
    if (index === chunks.length - 1 && then === 'end') return void response.end(chunk);
    response.write(chunk);
  }
  if (then === 'repeat') return repeatUntilClosed(response, Buffer.from(reply.repeat!), sent);
  if (then === 'end') return void response.end();
  if (then === 'hang') {
    if (!response.destroyed) await once(response, 'close');
    return;
  }
  await pause(20);
  if (then === 'reset') response.socket?.resetAndDestroy();
  else response.socket?.destroy();
}

/** A JSON body (an answer or an error) with its status and headers. */
export function jsonReply(status: number, body: unknown, headers: OutgoingHttpHeaders = {}): Reply {
  const text = Buffer.from(JSON.stringify(body));
  return {
    status,
    headers: { 'content-type': 'application/json', 'content-length': text.length, ...headers },
    chunks: [text],
  };
}

export const eventStreamHeaders = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

/** A recorded SSE body cut into five pieces, cut inside events, as a network would deliver it. */
export function replayReply(body: string, then: Reply['then'] = 'end'): Reply {
  const size = Math.ceil(body.length / 5);
  const chunks: string[] = [];
  for (let start = 0; start < body.length; start += size) chunks.push(body.slice(start, start + size));
  return { headers: eventStreamHeaders, chunks, chunkDelayMs: 0, then };
}

export interface FixtureAnswer {
  /** The recorded stream, replayed in pieces cut inside events. */
  stream: string;
  /** The whole answer (JSON) when no stream was asked; without it, the stream is replayed whatever was asked. */
  whole?: unknown;
  /** After the stream: end (default), hang, or cut the connection. */
  then?: Reply['then'];
}

/** A generation from recorded fixtures; `streams` tells whether the request asked for a stream. */
export function fixtureAnswer(
  streams: (request: RecordedRequest) => boolean,
  plan: FixtureAnswer | ((request: RecordedRequest) => FixtureAnswer),
): Step {
  return (request) => {
    const resolved = typeof plan === 'function' ? plan(request) : plan;
    if (!streams(request) && resolved.whole !== undefined) return jsonReply(200, resolved.whole);
    return replayReply(resolved.stream, resolved.then);
  };
}

/** A recorded upstream answer kept next to its provider's code (main/providers/<provider>/__fixtures__/<name>). */
export function providerFixture(provider: string, name: string): string {
  return readFileSync(new URL(`../../main/providers/${provider}/__fixtures__/${name}`, import.meta.url), 'utf8');
}

/** A port nothing listens on: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
