// The HTTP side every adapter shares, and the only module under main/providers that talks to undici: request() on
// one keep-alive Agent, non-2xx answers mapped to UpstreamError, bounded body reads, SSE framing by
// eventsource-parser, and the limits that keep a stuck upstream from holding a caller (time to headers, time
// between complete events, size of an answer and of one event). Our abort (caller gone, shutdown) always wins over
// whatever undici made of it: the pending call then rejects with `signal.reason`.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Agent, request, type Dispatcher } from 'undici';
import { ApiError } from '../../../shared/api/index.js';
import type { UpstreamTarget } from '../adapter.js';
import { redactorFor, type SecretRedactor } from './redact.js';
import { SseParts, type SseEventDecoder } from './sse-parts.js';
import {
  malformedUpstream,
  mapTransportError,
  mapUpstreamError,
  upstreamTimeout,
  UpstreamError,
  type TransportContext,
  type UpstreamErrorResponse,
} from './upstream-errors.js';

export interface UpstreamHttpOptions {
  /** Where requests go; by default a keep-alive Agent owned (and closed) by this object. */
  dispatcher?: Dispatcher;
  /**
   * Time from sending a request to the response headers of a whole (non-streamed) answer, which upstreams send
   * only once the generation is done. Default 10 min (as the OpenAI SDK's own timeout).
   */
  headersTimeoutMs?: number;
  /**
   * Time to the response headers of a streamed answer: upstreams send them at once, or after loading the model
   * (a local server's cold start). Default 2 min, and never more than `headersTimeoutMs`.
   */
  streamHeadersTimeoutMs?: number;
  /**
   * Longest wait for the next complete SSE event (keep-alive comments count: they are the upstream saying it is
   * still thinking) and for the rest of a whole answer's body after its headers. A body that drips a byte at a
   * time never completes an event and is cut at this limit. Default 5 min, for reasoning models that think
   * silently before their first token.
   */
  bodyTimeoutMs?: number;
  /** TCP + TLS connect of a new connection; a dead host fails fast and the next attempt can start. Default 10 s. */
  connectTimeoutMs?: number;
  /** How long an idle pooled connection is kept for the next request. Default 30 s. */
  keepAliveTimeoutMs?: number;
  /** Largest whole (non-streamed) answer, and largest single SSE event. Default 16 MiB each. */
  maxBodyBytes?: number;
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

/** An error body is only ever quoted back in part; more than this is not read. */
const maxErrorBodyBytes = 64 * 1024;
const defaultMaxBodyBytes = 16 * 1024 * 1024;
const userAgent = 'Switchyard/0.1';

function seconds(ms: number): number {
  return Math.round(ms / 1000);
}

function mebibytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}

export function headerValue(headers: UpstreamResponse['headers'], name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** A body read up to a limit: the text, and whether the limit cut it short. */
export interface BodyText {
  text: string;
  cut: boolean;
}

/** Reads at most `limit` bytes of a body as text; the rest is discarded (and the connection with it). */
export async function readText(body: UpstreamResponse['body'], limit: number): Promise<BodyText> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > limit) break; // leaving the loop destroys the rest of the body
  }
  const whole = Buffer.concat(chunks, Math.min(size, limit + 1));
  // A character split by the cut is dropped rather than turned into U+FFFD.
  return size > limit
    ? {
        text: whole
          .subarray(0, limit)
          .toString('utf8')
          .replace(/\uFFFD$/, ''),
        cut: true,
      }
    : { text: whole.toString('utf8'), cut: false };
}

/**
 * SSE events as eventsource-parser frames them (CRLF, multi-line data and comments are its job, never split lines
 * by hand). A last event without its blank line is still delivered. An event over `maxEventChars` is a 502.
 * `onActivity` is called for every complete event and comment.
 */
export async function* decodeSseEvents(
  body: AsyncIterable<Uint8Array | string>,
  providerId: string,
  maxEventChars: number = defaultMaxBodyBytes,
  onActivity?: () => void,
): AsyncGenerator<EventSourceMessage, void, undefined> {
  let pending: EventSourceMessage[] = [];
  let tooLarge = false;
  const parser = createParser({
    maxBufferSize: maxEventChars,
    onEvent: (event) => {
      // The parser's buffer limit catches an event still arriving; one that arrived in a single read is whole here.
      if (event.data.length > maxEventChars) tooLarge = true;
      else pending.push(event);
      onActivity?.();
    },
    onComment: onActivity && (() => onActivity()),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') tooLarge = true;
    },
  });
  const take = (): EventSourceMessage[] => {
    if (tooLarge) {
      throw malformedUpstream(
        providerId,
        `sent an SSE event over ${mebibytes(maxEventChars)}, the limit for one event`,
      );
    }
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

/**
 * A timer that destroys a response body with an UpstreamError when it fires; `restart()` after each sign of life.
 * Destroying the body makes the pending read reject with that error, and closes the upstream connection.
 */
class BodyWatchdog {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly body: UpstreamResponse['body'],
    private readonly ms: number,
    private readonly error: () => UpstreamError,
  ) {
    this.restart();
  }

  restart(): void {
    if (this.ms <= 0) return;
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(() => this.body.destroy(this.error()), this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

export class UpstreamHttp {
  readonly headersTimeoutMs: number;
  readonly streamHeadersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly maxBodyBytes: number;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;

  /** `mapError` turns a non-2xx answer into our error; providers with quirks (Gemini) pass their own. */
  constructor(
    options: UpstreamHttpOptions = {},
    private readonly mapError: (response: UpstreamErrorResponse) => UpstreamError = mapUpstreamError,
  ) {
    this.headersTimeoutMs = options.headersTimeoutMs ?? 600_000;
    this.streamHeadersTimeoutMs = Math.min(options.streamHeadersTimeoutMs ?? 120_000, this.headersTimeoutMs);
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? 300_000;
    this.maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
        connect: { timeout: options.connectTimeoutMs ?? 10_000 },
        headersTimeout: this.headersTimeoutMs,
        bodyTimeout: 0, // the watchdogs below time bodies: by complete events, not by bytes
      });
  }

  /** The secrets of a call, scrubbed from whatever the upstream echoes back. */
  secretsOf(target: ProviderTarget): SecretRedactor {
    return redactorFor(target.apiKey, ...(target.callerSecrets ?? []));
  }

  /** The limits for one provider: its own timeouts (ProviderInfo.timeouts, seconds) where set, else ours. */
  private limitsOf(target: ProviderTarget): { headersMs: number; streamHeadersMs: number; idleMs: number } {
    const own = target.provider.timeouts;
    const headersMs = own?.headers !== undefined ? own.headers * 1000 : this.headersTimeoutMs;
    const streamHeadersMs = own?.stream_headers !== undefined ? own.stream_headers * 1000 : this.streamHeadersTimeoutMs;
    return {
      headersMs,
      streamHeadersMs: Math.min(streamHeadersMs, headersMs),
      idleMs: own?.idle !== undefined ? own.idle * 1000 : this.bodyTimeoutMs,
    };
  }

  /** Our abort wins; anything else becomes the UpstreamError of a network failure. */
  rethrow(
    error: unknown,
    signal: AbortSignal,
    target: ProviderTarget,
    headersTimeoutMs = this.headersTimeoutMs,
  ): never {
    if (signal.aborted) throw signal.reason ?? error;
    const context: TransportContext = {
      providerId: target.provider.id,
      baseUrl: target.provider.base_url,
      headersTimeoutMs,
    };
    throw mapTransportError(error, context);
  }

  /** Sends one request; resolves with a 2xx response, rejects with an UpstreamError for anything else. */
  async send(call: UpstreamCall): Promise<UpstreamResponse> {
    const { target, signal } = call;
    // Copied, then extended: a literal that spreads and adds keys costs about a microsecond on every call. The
    // target's extra headers (a `traceparent`) go first, so that they never replace the provider's own.
    const headers: Record<string, string> = Object.assign({}, target.extraHeaders, call.headers);
    headers.accept = call.accept;
    headers['user-agent'] = userAgent;
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = encodeBody(call.body, target.provider.id);
    }
    const limits = this.limitsOf(target);
    const headersTimeout = call.accept === 'text/event-stream' ? limits.streamHeadersMs : limits.headersMs;
    let response: UpstreamResponse;
    try {
      response = await request(call.url, {
        method: call.method,
        headers,
        body,
        signal,
        dispatcher: this.dispatcher,
        headersTimeout,
        bodyTimeout: 0,
      });
    } catch (error) {
      this.rethrow(error, signal, target, headersTimeout);
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return response;
    const read = await this.readBody(response, target, signal, maxErrorBodyBytes);
    throw this.mapError({
      providerId: target.provider.id,
      status: response.statusCode,
      headers: response.headers,
      body: read.text,
      cut: read.cut,
      secrets: this.secretsOf(target),
    });
  }

  /** Up to `limit` bytes of a body, which must arrive within the body timeout. */
  private async readBody(
    response: UpstreamResponse,
    target: ProviderTarget,
    signal: AbortSignal,
    limit: number,
  ): Promise<BodyText> {
    const { idleMs } = this.limitsOf(target);
    const watchdog = new BodyWatchdog(response.body, idleMs, () =>
      upstreamTimeout(target.provider.id, `did not finish sending its answer within ${seconds(idleMs)} s`),
    );
    try {
      return await readText(response.body, limit);
    } catch (error) {
      this.rethrow(error, signal, target);
    } finally {
      watchdog.stop();
    }
  }

  /**
   * The JSON body of a 2xx answer. A body over the size limit, one that does not finish within the body timeout,
   * or one that is not JSON is a 502/504 (never retried: the upstream answered).
   */
  async readJson(response: UpstreamResponse, target: ProviderTarget, signal: AbortSignal): Promise<unknown> {
    const providerId = target.provider.id;
    const tooLarge = () =>
      malformedUpstream(
        providerId,
        `answered with a body over ${mebibytes(this.maxBodyBytes)}, the limit for one answer`,
      );
    const declared = Number(headerValue(response.headers, 'content-length'));
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) {
      response.body.destroy();
      throw tooLarge();
    }
    const read = await this.readBody(response, target, signal, this.maxBodyBytes);
    if (read.cut) throw tooLarge();
    try {
      return JSON.parse(read.text) as unknown;
    } catch {
      throw malformedUpstream(providerId, 'answered with invalid JSON', read.text, this.secretsOf(target));
    }
  }

  /** GETs `url` and reads its JSON answer (see send and readJson). */
  async getJson(
    target: ProviderTarget,
    url: string,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<unknown> {
    const response = await this.send({ target, method: 'GET', url, headers, accept: 'application/json', signal });
    return this.readJson(response, target, signal);
  }

  /**
   * The SSE events of a 2xx answer (see decodeSseEvents). An upstream that sends no complete event (nor comment)
   * for the body timeout is cut off with a 504; network failures become UpstreamErrors.
   */
  async *sseEvents(
    response: UpstreamResponse,
    target: ProviderTarget,
    signal: AbortSignal,
  ): AsyncGenerator<EventSourceMessage, void, undefined> {
    const providerId = target.provider.id;
    const { idleMs } = this.limitsOf(target);
    const watchdog = new BodyWatchdog(response.body, idleMs, () =>
      upstreamTimeout(providerId, `sent no complete stream event for ${seconds(idleMs)} s`),
    );
    try {
      yield* decodeSseEvents(response.body as AsyncIterable<Uint8Array>, providerId, this.maxBodyBytes, () =>
        watchdog.restart(),
      );
    } catch (error) {
      if (error instanceof ApiError) throw error;
      this.rethrow(error, signal, target);
    } finally {
      watchdog.stop();
    }
  }

  /**
   * What `decoder` makes of the SSE events of a 2xx answer, one part at a time (see SseParts), with the limits of
   * sseEvents(): an event over the size limit is a 502, no complete event for the body timeout a 504, a network
   * failure an UpstreamError, our abort its reason.
   */
  sseParts<T>(
    response: UpstreamResponse,
    target: ProviderTarget,
    signal: AbortSignal,
    decoder: SseEventDecoder<T>,
  ): AsyncIterableIterator<T> {
    const providerId = target.provider.id;
    const { idleMs } = this.limitsOf(target);
    const watchdog = new BodyWatchdog(response.body, idleMs, () =>
      upstreamTimeout(providerId, `sent no complete stream event for ${seconds(idleMs)} s`),
    );
    return new SseParts(response.body, decoder, {
      maxEventChars: this.maxBodyBytes,
      tooLarge: () =>
        malformedUpstream(
          providerId,
          `sent an SSE event over ${mebibytes(this.maxBodyBytes)}, the limit for one event`,
        ),
      watchdog,
      mapError: (error) => {
        if (error instanceof ApiError) return error;
        try {
          this.rethrow(error, signal, target);
        } catch (mapped) {
          return mapped;
        }
      },
    });
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }
}

/**
 * The request body as JSON. What cannot be encoded (a value nested too deep for the encoder) is the caller's
 * request, not the provider's failure: a 400, and never retried.
 */
function encodeBody(body: unknown, providerId: string): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    const reason = error instanceof RangeError ? 'it is nested too deeply' : 'it holds a value JSON cannot encode';
    throw new UpstreamError({
      status: 400,
      message: `The request could not be encoded for provider "${providerId}": ${reason}.`,
      provider: providerId,
      retryable: false,
    });
  }
}
