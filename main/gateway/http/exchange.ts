// What the pipeline knows of an HTTP exchange, without knowing HTTP: who called (read from the request by
// caller.ts) and where a streamed answer goes (the status and headers once it opens, then data, comments and an
// ending; sse-output.ts puts them on an SSE response, tests record them). Nothing here names a server, so the
// pipeline runs a request without knowing what carried it.

import type { ApiError, ChatCompletion, ChatCompletionChunk } from '../../../shared/api/index.js';

/** Who called: read once from the request (caller.ts), before the pipeline starts a generation for it. */
export interface Caller {
  /** The gateway key that authenticated the request. */
  keyId: string;
  /** The secret the caller presented: never echoed back, whatever an upstream quotes of the request. */
  secret: string;
  /** The calling app's name (X-Title, or the user agent where a protocol asks for it). */
  appTitle: string | null;
  appReferer: string | null;
  /** Aborts when the caller leaves or the gateway shuts down (in-flight.ts). */
  signal: AbortSignal;
  /** The route that took the request as registered (`/v1/chat/completions`), for metrics and traces. */
  route: string;
  /** The caller's W3C `traceparent` header, when it sent one. */
  traceParent: string | null;
  /** The `Cache-Control` and `X-Switchyard-Cache` request headers, for the response cache. */
  cacheControl: string | null;
  switchyardCache: string | null;
}

/** What a request came to, for the route to put on the wire (a stream writes its own). */
export type Outcome<Body = ChatCompletion> =
  | { kind: 'answer'; body: Body }
  | { kind: 'error'; error: ApiError }
  /** Nobody is left to answer. */
  | { kind: 'caller-gone' };

/** The keep-alive comment a stream gets while its upstream is silent. */
export const processingComment = 'SWITCHYARD PROCESSING';

/** That comment as SSE text: the keep-alive of every stream whose protocol has no ping event of its own. */
export const processingKeepAlive = (): string => `: ${processingComment}\n\n`;

/** Where a generation's chunks go: an SSE response in the gateway, a recorder in tests. */
export interface StreamOutput {
  /** True once open() was called. */
  readonly opened: boolean;
  /** Sends the status and headers; keep-alive comments start. */
  open(): void;
  data(chunk: ChatCompletionChunk): Promise<void>;
  comment(text: string): Promise<void>;
  /** Ends the stream (`[DONE]`). */
  end(): void;
  /** The caller is gone: stop writing and drop the connection. */
  abandon(): void;
}

/** A stream of SSE text the caller's protocol already speaks (an upstream's native events, passed on). */
export interface RawStreamOutput {
  readonly opened: boolean;
  /** Sends the status and headers; keep-alives start. */
  open(): void;
  write(text: string): Promise<void>;
  /** Writes `last` and ends the response. */
  end(last: string): void;
  /** The caller is gone: stop writing and drop the connection. */
  abandon(): void;
}

/** Turns the chunks of a generation into one protocol's SSE text. Stateful: one encoder per stream. */
export interface StreamEncoder {
  /** The SSE text for one chunk (may be '' when the chunk carries nothing the protocol shows). */
  chunk(chunk: ChatCompletionChunk): string;
  /** The SSE text that ends the stream, after the last chunk (an error chunk included). */
  end(): string;
  /** The SSE text sent while the upstream is silent. */
  keepAlive(): string;
}
