// Upstream failures → our ApiError, for every adapter. The caller must be able to tell "my request was bad" (4xx)
// from "the provider failed" (502/503), and must never see a 401 for the provider's key: a 401 would say the
// caller's own key is bad. Nothing here may leak a secret: the provider's key is scrubbed from anything the upstream
// echoed back.

import { ApiError } from '../../../shared/api/index.js';
import { withRetryHint } from '../retry-hint.js';
import { displayUrl } from './url.js';

const maxRawChars = 2_000;
const maxMessageChars = 300;

export interface UpstreamErrorResponse {
  providerId: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The response body as text (possibly truncated by the reader). */
  body: string;
  /** The provider's key, scrubbed from everything that reaches the caller. */
  apiKey: string | null;
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

export function redactSecret(text: string, secret: string | null): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join('[redacted]');
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The upstream body for `metadata.raw`: parsed JSON when it is JSON, else a truncated string; key scrubbed. */
export function rawUpstreamBody(body: string, apiKey: string | null): unknown {
  const scrubbed = redactSecret(body, apiKey);
  try {
    return JSON.parse(scrubbed) as unknown;
  } catch {
    return truncate(scrubbed, maxRawChars);
  }
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function messageFor(providerId: string, meaning: number, status: number, raw: unknown, apiKey: string | null): string {
  let message = describeStatus(providerId, meaning, status);
  // An auth failure's text is about the provider's key, not something the caller can act on (and may echo it).
  const upstreamMessage = meaning === 401 || meaning === 403 ? null : upstreamErrorMessage(raw);
  if (upstreamMessage) message += `: ${truncate(redactSecret(upstreamMessage, apiKey), maxMessageChars)}`;
  else message += '.';
  return message;
}

export function mapUpstreamError(response: UpstreamErrorResponse): ApiError {
  const { providerId, status, apiKey } = response;
  const raw = rawUpstreamBody(response.body, apiKey);
  const meaning = response.meaning ?? status;
  const ourStatus = mapUpstreamStatus(meaning);
  const headers: Record<string, string> = {};
  const retryAfter = firstHeader(response.headers['retry-after']);
  if (ourStatus === 429 && retryAfter) headers['retry-after'] = retryAfter;
  const error = new ApiError(
    ourStatus,
    messageFor(providerId, meaning, status, raw, apiKey),
    { provider_name: providerId, raw },
    headers,
  );
  // The retry policy judges by the upstream's own status (a rejected key is our 502 but never passes).
  return withRetryHint(error, { upstreamStatus: status, retryAfter });
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
  apiKey: string | null,
  upstreamStatus?: number,
): ApiError {
  const scrubbed = rawUpstreamBody(JSON.stringify(payload), apiKey);
  if (upstreamStatus !== undefined) {
    const message = messageFor(providerId, upstreamStatus, upstreamStatus, scrubbed, apiKey);
    const error = new ApiError(mapUpstreamStatus(upstreamStatus), message, {
      provider_name: providerId,
      raw: scrubbed,
    });
    // An overload reported before the first part of a stream is worth another attempt; a rejected key is not.
    return withRetryHint(error, { upstreamStatus });
  }
  const upstreamMessage = upstreamErrorMessage({ error: scrubbed }) ?? 'unknown error';
  return new ApiError(
    502,
    `Provider "${providerId}" reported an error: ${truncate(upstreamMessage, maxMessageChars)}`,
    { provider_name: providerId, raw: scrubbed },
  );
}

/** A 502 for an upstream that answered something we cannot use; `raw` (scrubbed, shortened) goes in metadata. */
export function malformedUpstream(
  providerId: string,
  what: string,
  raw?: string,
  apiKey: string | null = null,
): ApiError {
  const metadata: Record<string, unknown> = { provider_name: providerId };
  if (raw !== undefined) metadata.raw = redactSecret(raw.slice(0, 500), apiKey);
  return new ApiError(502, `Provider "${providerId}" ${what}.`, metadata);
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
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
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

/** Network-level failures (no HTTP answer, or the connection broke while reading). Messages use codes only. */
export function mapTransportError(error: unknown, context: TransportContext): ApiError {
  if (error instanceof ApiError) return error;
  const { providerId } = context;
  const metadata = { provider_name: providerId };
  const code = errorCode(error);
  // Our own timeouts last minutes: asking the same upstream again would only double the wait (a fallback may).
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    const seconds = Math.round(context.headersTimeoutMs / 1000);
    const error = new ApiError(408, `Provider "${providerId}" did not answer within ${seconds} s.`, metadata);
    return withRetryHint(error, { retryable: false });
  }
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    const seconds = Math.round(context.bodyTimeoutMs / 1000);
    const error = new ApiError(408, `Provider "${providerId}" sent nothing for ${seconds} s.`, metadata);
    return withRetryHint(error, { retryable: false });
  }
  if (code !== undefined && unreachableCodes.has(code)) {
    return new ApiError(
      502,
      `Could not reach provider "${providerId}" at ${displayUrl(context.baseUrl)}: ${code}`,
      metadata,
    );
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
    return new ApiError(502, `The connection to provider "${providerId}" was lost: ${code}`, metadata);
  }
  if (code === 'ERR_INVALID_URL' || code === 'UND_ERR_INVALID_ARG') {
    return new ApiError(502, `Provider "${providerId}" has an invalid base URL.`, metadata);
  }
  const label = code ?? (error instanceof Error ? error.name : 'unknown error');
  return new ApiError(502, `The request to provider "${providerId}" failed: ${label}`, metadata);
}
