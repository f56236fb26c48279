// The real gateway (createGateway + ProviderRegistry + the OpenAI adapter with short upstream timeouts) in front
// of the fake OpenAI upstream misbehaving on request: the model name picks the fault. The fake records every
// request with the time its connection closed, so tests can tell that the gateway let go of it.

import { once } from 'node:events';
import { connect } from 'node:net';
import type { Logger } from 'pino';
import type { UsageRecord } from '../../shared/api/index.js';
import type { Gateway, GatewayOptions } from '../../main/gateway/index.js';
import { createOpenAIAdapter } from '../../main/providers/index.js';
import { answer, chunk, errorEvent, FakeOpenAI, hang, rejectKey, sse, type Step } from '../support/fake-openai.js';
import { eventStreamHeaders } from '../support/recording-server.js';
import { refusingProvider, startTestGateway, type MemoryKeys } from '../support/test-gateway.js';

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
  /** A stream without end, of events of about 2 KB, each write as soon as the connection took the one before. */
  endless: 'endless',
} as const;

const slowly = (chunks: number) =>
  answer({ content: Array<string>(chunks).fill('a'), firstChunkAfterMs: 20, chunkDelayMs: 20, form: 'stream' });

/** What the fake upstream does for each fault. */
const faultSteps: Record<string, Step> = {
  [faults.ok]: answer({ content: ['Hel', 'lo'], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }),
  [faults.slow]: slowly(1000),
  [faults.steady]: slowly(50),
  [faults.hangHeaders]: hang(),
  [faults.hangMidStream]: answer({ content: ['Still'], ending: 'hang' }),
  [faults.garbage]: answer({ content: ['Partial'], ending: 'garbage' }),
  [faults.garbageJson]: () => ({
    headers: { 'content-type': 'application/json' },
    chunks: ['<html>definitely not JSON</html>'],
  }),
  [faults.binary]: () => {
    const bytes = Buffer.alloc(4096);
    for (let index = 0; index < bytes.length; index += 1) bytes[index] = (index * 151 + 7) % 256;
    const invalidUtf8 = Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0x0a, 0x0a]);
    return { headers: eventStreamHeaders, chunks: [Buffer.concat([Buffer.from('data: '), bytes, invalidUtf8])] };
  },
  [faults.reset]: answer({ content: ['Cut'], ending: 'reset' }),
  [faults.echoKey]: rejectKey(),
  [faults.echoKeyStream]: errorEvent((request) => ({
    error: { message: `Key ${String(request.headers.authorization)} was revoked` },
  })),
  [faults.endless]: () => ({
    headers: eventStreamHeaders,
    repeat: sse(chunk(faults.endless, { content: 'All work and no play makes Jack a dull boy. '.repeat(45) })),
  }),
};

/** The fake upstream with every fault, not yet started. It keeps the chat requests only: tests index them. */
export function faultUpstream(): FakeOpenAI {
  return new FakeOpenAI({
    models: Object.values(faults),
    byModel: faultSteps,
    record: (request) => request.method === 'POST',
  });
}

export interface HardeningHarness {
  upstream: FakeOpenAI;
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

export async function startHardeningHarness(options: HarnessOptions = {}): Promise<HardeningHarness> {
  const upstream = faultUpstream();
  const timeout = options.upstreamTimeoutMs ?? 400;
  const served = await startTestGateway({
    providers: [
      { id: 'fault', baseUrl: await upstream.start(), apiKey: upstreamSecret },
      await refusingProvider('down'),
    ],
    adapters: [createOpenAIAdapter({ headersTimeoutMs: timeout, bodyTimeoutMs: timeout })],
    callers: { 'key-1': callerSecret },
    gateway: { retry: { maxRetries: 0 }, ...options.gateway },
    logger: options.logger,
    host: options.host,
    beforeListen: options.beforeListen,
  });
  return {
    ...served,
    upstream,
    port: Number(new URL(served.baseURL).port),
    async close() {
      await served.close(500);
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

/** The SSE `data:` payloads of a stream body. */
export function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .map((event) => event.trim())
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length));
}
