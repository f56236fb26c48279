// Upstream failures → our ApiError, for every adapter. The caller must be able to tell "my request was bad" (4xx)
// from "the provider failed" (502/503), and must never see a 401 for the provider's key: a 401 would say the
// caller's own key is bad. Nothing here may leak a secret: the provider's key is scrubbed (redact.ts) from anything
// the upstream echoed back, before anything is shortened.
// Every failure an adapter reports is an UpstreamError: our status and message for the caller, plus the facts the
// retry policy needs (the upstream's own status, Retry-After, whether trying again can help), as fields of the
// error itself, in the way the AI SDK's APICallError carries them.

import type { z } from 'zod';
import { ApiError } from '../../../shared/api/index.js';
import { redactorFor, type SecretRedactor } from './redact.js';
import { displayUrl } from './url.js';

const maxRawChars = 2_000;
const maxMessageChars = 300;

/** Statuses worth another attempt at the same upstream: timeouts, rate limits and server failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501 && status !== 505);
}

/** Retry-After (delta seconds or an HTTP date) → milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export interface UpstreamErrorInit {
  /** Our status, for the caller (mapUpstreamStatus of the upstream's). */
  status: number;
  message: string;
  provider: string;
  /** The upstream's own HTTP status (or the one its error type stands for), when it answered with one. */
  upstreamStatus?: number;
  /** The upstream's Retry-After (seconds or an HTTP date), whatever status we answer with. */
  retryAfter?: string;
  /** Whether the same upstream may be asked again; by default judged from the upstream's status (else ours). */
  retryable?: boolean;
  /** What the upstream sent, already scrubbed of secrets; it goes to the caller as `metadata.raw`. */
  raw?: unknown;
  /** Response headers for the caller (Retry-After on a 429). */
  headers?: Record<string, string>;
}

/** A failed upstream call, as every adapter reports it. On the wire it is the ApiError envelope. */
export class UpstreamError extends ApiError {
  readonly provider: string;
  readonly upstreamStatus: number | undefined;
  readonly retryAfter: string | undefined;
  readonly retryable: boolean;
  readonly raw: unknown;

  constructor(init: UpstreamErrorInit) {
    const metadata: Record<string, unknown> = { provider_name: init.provider };
    if (init.raw !== undefined) metadata.raw = init.raw;
    super(init.status, init.message, metadata, init.headers ?? {});
    this.name = 'UpstreamError';
    this.provider = init.provider;
    this.upstreamStatus = init.upstreamStatus;
    this.retryAfter = init.retryAfter;
    this.retryable = init.retryable ?? isRetryableStatus(init.upstreamStatus ?? init.status);
    this.raw = init.raw;
  }
}

export interface UpstreamErrorResponse {
  providerId: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The response body as text (possibly truncated by the reader: then `cut` is true). */
  body: string;
  cut?: boolean;
  /** The request's secrets (the provider's key), scrubbed from everything that reaches the caller. */
  secrets: SecretRedactor;
  /**
   * The status whose meaning applies, when the upstream's own status says less: Gemini answers a bad key with a
   * 400 that must not reach the caller as "your request was bad".
   */
  meaning?: number;
}

/** Our status for an upstream HTTP status (notes section 2). */
export function mapUpstreamStatus(status: number): number {
  switch (status) {
    case 400:
    case 422:
      return 400;
    case 401:
    case 403:
    case 402:
      return 502;
    case 404:
    case 408:
    case 413:
    case 429:
      return status;
    case 503:
    case 529:
      return 503;
    default:
      return 502;
  }
}

function describeStatus(providerId: string, meaning: number, status: number): string {
  const who = `Provider "${providerId}"`;
  switch (meaning) {
    case 400:
    case 422:
      return `${who} rejected the request (upstream ${status})`;
    case 401:
    case 403:
      return `${who} rejected its API key (upstream ${status})`;
    case 402:
      return `${who} refused the request: its account has no credits (upstream ${status})`;
    case 404:
      return `${who} does not know the requested model or endpoint (upstream ${status})`;
    case 408:
      return `${who} timed out (upstream ${status})`;
    case 413:
      return `${who} says the request is too large (upstream ${status})`;
    case 429:
      return `${who} is rate limiting requests (upstream ${status})`;
    case 503:
    case 529:
      return `${who} is unavailable or overloaded (upstream ${status})`;
    default:
      return meaning >= 500 ? `${who} failed (upstream ${status})` : `${who} answered ${status}`;
  }
}

/**
 * The human-readable message of an upstream error body. Covers OpenAI-style `{error: {message}}` and
 * `{error: "…"}`, Anthropic's `{type: "error", error: {type, message}}`, Google's `{error: {code, message, status}}`
 * (also wrapped in a one-element array), and `{message}` / `{detail}`.
 */
export function upstreamErrorMessage(body: unknown): string | null {
  if (typeof body === 'string') return body.trim() || null;
  if (Array.isArray(body)) return body.length === 1 ? upstreamErrorMessage(body[0]) : null;
  if (body === null || typeof body !== 'object') return null;
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'string') return error;
  if (error !== null && typeof error === 'object' && typeof (error as Record<string, unknown>).message === 'string') {
    return (error as Record<string, unknown>).message as string;
  }
  if (typeof record.message === 'string') return record.message;
  if (typeof record.detail === 'string') return record.detail;
  return null;
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The upstream body for `metadata.raw`: the decoded JSON with every string scrubbed when it is JSON, else the
 * scrubbed text, shortened. Scrubbing comes first (a cut must never leave part of a key), and on the decoded value
 * as well as the text, since JSON may spell a key with escapes that only decoding turns back into the key.
 * `cut`: the reader stopped at its limit, so the text may end inside a key.
 */
export function rawUpstreamBody(body: string, secrets: SecretRedactor, cut = false): unknown {
  if (!cut) {
    try {
      return secrets.value(JSON.parse(body) as unknown);
    } catch {
      // not JSON: quoted as text below
    }
  }
  return truncate(secrets.text(body, { cut }), maxRawChars);
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `raw` is already scrubbed; so is the message taken from it. */
function messageFor(providerId: string, meaning: number, status: number, raw: unknown): string {
  let message = describeStatus(providerId, meaning, status);
  // An auth failure's text is about the provider's key, not something the caller can act on (and may echo it).
  const upstreamMessage = meaning === 401 || meaning === 403 ? null : upstreamErrorMessage(raw);
  if (upstreamMessage) message += `: ${truncate(upstreamMessage, maxMessageChars)}`;
  else message += '.';
  return message;
}

export function mapUpstreamError(response: UpstreamErrorResponse): UpstreamError {
  const { providerId, status } = response;
  const raw = rawUpstreamBody(response.body, response.secrets, response.cut);
  const meaning = response.meaning ?? status;
  const ourStatus = mapUpstreamStatus(meaning);
  const headers: Record<string, string> = {};
  const retryAfter = firstHeader(response.headers['retry-after']);
  if (ourStatus === 429 && retryAfter) headers['retry-after'] = retryAfter;
  // The retry policy judges by the upstream's own status (a rejected key is our 502 but never passes).
  return new UpstreamError({
    status: ourStatus,
    message: messageFor(providerId, meaning, status, raw),
    provider: providerId,
    upstreamStatus: status,
    ...(retryAfter ? { retryAfter } : {}),
    raw,
    headers,
  });
}

/**
 * An error that arrived with a 2xx status (some servers do that) or inside a stream. Without `upstreamStatus`,
 * `payload` is the value of an `error` field and the result a 502 "reported an error". With it (from Anthropic's
 * error type, Google's `error.code`), `payload` is the whole error body and the status maps as if the upstream
 * had answered with it: an overload mid-stream is a 503, a rate limit a 429.
 */
export function mapUpstreamErrorPayload(
  providerId: string,
  payload: unknown,
  secrets: SecretRedactor,
  upstreamStatus?: number,
): UpstreamError {
  const scrubbed = secrets.value(payload);
  if (upstreamStatus !== undefined) {
    // An overload reported before the first part of a stream is worth another attempt; a rejected key is not.
    return new UpstreamError({
      status: mapUpstreamStatus(upstreamStatus),
      message: messageFor(providerId, upstreamStatus, upstreamStatus, scrubbed),
      provider: providerId,
      upstreamStatus,
      raw: scrubbed,
    });
  }
  const upstreamMessage = upstreamErrorMessage({ error: scrubbed }) ?? 'unknown error';
  return new UpstreamError({
    status: 502,
    message: `Provider "${providerId}" reported an error: ${truncate(upstreamMessage, maxMessageChars)}`,
    provider: providerId,
    raw: scrubbed,
  });
}

const maxMalformedRawChars = 500;

/**
 * A 502 for an upstream that answered something we cannot use (not JSON, not the shape its protocol promises, a
 * stream cut short). `raw`, when given, goes to the caller as `metadata.raw`: scrubbed first, then shortened.
 * Never retried: the upstream answered, and asking again would only bill another generation.
 */
export function malformedUpstream(
  providerId: string,
  what: string,
  raw?: string,
  secrets: SecretRedactor = redactorFor(),
): UpstreamError {
  return new UpstreamError({
    status: 502,
    message: `Provider "${providerId}" ${what}.`,
    provider: providerId,
    retryable: false,
    ...(raw !== undefined ? { raw: truncate(secrets.text(raw), maxMalformedRawChars) } : {}),
  });
}

/** The JSON in the data of one SSE event; a 502 quoting the data (scrubbed) when it is not JSON. */
export function parseEventJson(data: string, providerId: string, secrets: SecretRedactor): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    throw malformedUpstream(providerId, 'sent a stream event that is not JSON', data, secrets);
  }
}

/** A 2xx answer read with its protocol's schema; a 502 saying that the provider `answered …` when it does not fit. */
export function parseAnswer<Schema extends z.ZodType>(
  schema: Schema,
  json: unknown,
  providerId: string,
  what: string,
): z.output<Schema> {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw malformedUpstream(providerId, what);
  return parsed.data;
}

function errorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  return errorCode((error as { cause?: unknown }).cause);
}

export interface TransportContext {
  providerId: string;
  baseUrl: string;
  /** The limit that applied to this request's response headers. */
  headersTimeoutMs: number;
}

const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * An upstream that kept us waiting past one of our limits: a 504 for the caller, never retried on the same upstream
 * (the wait would only double; a fallback may answer).
 */
export function upstreamTimeout(providerId: string, what: string): UpstreamError {
  return new UpstreamError({
    status: 504,
    message: `Provider "${providerId}" ${what}.`,
    provider: providerId,
    retryable: false,
  });
}

/** Network-level failures (no HTTP answer, or the connection broke while reading). Messages use codes only. */
export function mapTransportError(error: unknown, context: TransportContext): ApiError {
  if (error instanceof ApiError) return error;
  const { providerId } = context;
  const failed = (message: string) => new UpstreamError({ status: 502, message, provider: providerId });
  const code = errorCode(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    const seconds = Math.round(context.headersTimeoutMs / 1000);
    return upstreamTimeout(providerId, `did not answer within ${seconds} s`);
  }
  if (code !== undefined && unreachableCodes.has(code)) {
    return failed(`Could not reach provider "${providerId}" at ${displayUrl(context.baseUrl)}: ${code}`);
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
    return failed(`The connection to provider "${providerId}" was lost: ${code}`);
  }
  if (code === 'ERR_INVALID_URL' || code === 'UND_ERR_INVALID_ARG') {
    const message = `Provider "${providerId}" has an invalid base URL.`;
    return new UpstreamError({ status: 502, message, provider: providerId, retryable: false });
  }
  const label = code ?? (error instanceof Error ? error.name : 'unknown error');
  return failed(`The request to provider "${providerId}" failed: ${label}`);
}
