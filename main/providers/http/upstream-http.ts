// The HTTP side every adapter shares: undici's request() on one keep-alive Agent, non-2xx answers mapped to
// ApiError, bounded body reads, and SSE framing by eventsource-parser. Our abort (caller gone, shutdown) always wins
// over whatever undici made of it: the pending call then rejects with `signal.reason`.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Agent, request, type Dispatcher } from 'undici';
import { ApiError } from '../../../shared/api/index.js';
import type { UpstreamTarget } from '../adapter.js';
import {
  malformedUpstream,
  mapTransportError,
  mapUpstreamError,
  type TransportContext,
  type UpstreamErrorResponse,
} from './upstream-errors.js';

export interface UpstreamHttpOptions {
  /** Where requests go; by default a keep-alive Agent owned (and closed) by this object. */
  dispatcher?: Dispatcher;
  /** Connect + time to response headers. Slow models think for minutes before the first byte. Default 5 min. */
  headersTimeoutMs?: number;
  /** Longest silence between two body chunks. Default 5 min. */
  bodyTimeoutMs?: number;
  /** TCP + TLS connect of a new connection; a dead host fails fast and the next attempt can start. Default 10 s. */
  connectTimeoutMs?: number;
}

export type UpstreamResponse = Dispatcher.ResponseData;
export type ProviderTarget = Omit<UpstreamTarget, 'model'>;

export interface UpstreamCall {
  target: ProviderTarget;
  method: 'GET' | 'POST';
  url: string;
  /** Provider headers (authentication, API version); accept, content-type and user-agent are added. */
  headers: Record<string, string>;
  /** Sent as JSON when set. */
  body?: unknown;
  accept: string;
  signal: AbortSignal;
}

const maxErrorBodyBytes = 64 * 1024;
const maxJsonBodyBytes = 64 * 1024 * 1024;
/** One SSE event larger than this is not a chat event: the upstream is broken. */
const maxEventChars = 16 * 1024 * 1024;
const userAgent = 'Switchyard/0.1';

/** Reads at most `limit` bytes of a body as text; the rest is discarded. */
export async function readText(body: UpstreamResponse['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break; // leaving the loop destroys the rest of the body
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

export function headerValue(headers: UpstreamResponse['headers'], name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * SSE events as eventsource-parser frames them (CRLF, multi-line data and comments are its job, never split lines
 * by hand). A last event without its blank line is still delivered. An event over 16 MiB is a 502.
 */
export async function* decodeSseEvents(
  body: AsyncIterable<Uint8Array | string>,
  providerId: string,
): AsyncGenerator<EventSourceMessage, void, undefined> {
  let pending: EventSourceMessage[] = [];
  let tooLarge = false;
  const parser = createParser({
    maxBufferSize: maxEventChars,
    onEvent: (event) => pending.push(event),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') tooLarge = true;
    },
  });
  const take = (): EventSourceMessage[] => {
    if (tooLarge) throw malformedUpstream(providerId, `sent an SSE event over ${maxEventChars} characters`);
    const events = pending;
    pending = [];
    return events;
  };
  const utf8 = new TextDecoder(); // `stream: true` keeps a character split between two chunks intact
  for await (const piece of body) {
    parser.feed(typeof piece === 'string' ? piece : utf8.decode(piece, { stream: true }));
    yield* take();
  }
  parser.feed(`${utf8.decode()}\n\n`); // dispatches a last event that lacks its blank line
  yield* take();
}

export class UpstreamHttp {
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;

  /** `mapError` turns a non-2xx answer into our error; providers with quirks (Gemini) pass their own. */
  constructor(
    options: UpstreamHttpOptions = {},
    private readonly mapError: (response: UpstreamErrorResponse) => ApiError = mapUpstreamError,
  ) {
    this.headersTimeoutMs = options.headersTimeoutMs ?? 300_000;
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? 300_000;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        keepAliveTimeout: 30_000,
        connect: { timeout: options.connectTimeoutMs ?? 10_000 },
        headersTimeout: this.headersTimeoutMs,
        bodyTimeout: this.bodyTimeoutMs,
      });
  }

  transportContext(target: ProviderTarget): TransportContext {
    return {
      providerId: target.provider.id,
      baseUrl: target.provider.base_url,
      headersTimeoutMs: this.headersTimeoutMs,
      bodyTimeoutMs: this.bodyTimeoutMs,
    };
  }

  /** Our abort wins; anything else becomes the ApiError of a network failure. */
  rethrow(error: unknown, signal: AbortSignal, target: ProviderTarget): never {
    if (signal.aborted) throw signal.reason ?? error;
    throw mapTransportError(error, this.transportContext(target));
  }

  /** Sends one request; resolves with a 2xx response, rejects with an ApiError for anything else. */
  async send(call: UpstreamCall): Promise<UpstreamResponse> {
    const { target, signal } = call;
    const headers: Record<string, string> = { ...call.headers, accept: call.accept, 'user-agent': userAgent };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    let response: UpstreamResponse;
    try {
      response = await request(call.url, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal,
        dispatcher: this.dispatcher,
        headersTimeout: this.headersTimeoutMs,
        bodyTimeout: this.bodyTimeoutMs,
      });
    } catch (error) {
      this.rethrow(error, signal, target);
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return response;
    let text: string;
    try {
      text = await readText(response.body, maxErrorBodyBytes);
    } catch (error) {
      this.rethrow(error, signal, target);
    }
    throw this.mapError({
      providerId: target.provider.id,
      status: response.statusCode,
      headers: response.headers,
      body: text,
      apiKey: target.apiKey,
    });
  }

  /** The JSON body of a 2xx answer; a body that is not JSON is a 502. */
  async readJson(response: UpstreamResponse, target: ProviderTarget, signal: AbortSignal): Promise<unknown> {
    let text: string;
    try {
      text = await readText(response.body, maxJsonBodyBytes);
    } catch (error) {
      this.rethrow(error, signal, target);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw malformedUpstream(target.provider.id, 'answered with invalid JSON', text, target.apiKey);
    }
  }

  /** The SSE events of a 2xx answer (see decodeSseEvents); network failures become ApiErrors. */
  async *sseEvents(
    response: UpstreamResponse,
    target: ProviderTarget,
    signal: AbortSignal,
  ): AsyncGenerator<EventSourceMessage, void, undefined> {
    try {
      yield* decodeSseEvents(response.body as AsyncIterable<Uint8Array>, target.provider.id);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      this.rethrow(error, signal, target);
    }
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }
}
