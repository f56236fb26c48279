// Anthropic's errors that arrive inside a stream (`event: error` after the 200). The error type says what the HTTP
// status would have been; the status mapping is the one of ../http/upstream-errors.ts (401/403 → 502, 529 → 503…).

import type { SecretRedactor } from '../http/redact.js';
import { mapUpstreamErrorPayload, type UpstreamError } from '../http/upstream-errors.js';

const statusByErrorType: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** `{type: "error", error: {type, message}}` → ApiError; an unknown type is a 502. */
export function mapAnthropicStreamError(providerId: string, payload: unknown, secrets: SecretRedactor): UpstreamError {
  const error = (payload as { error?: { type?: unknown } } | null)?.error;
  const type = typeof error?.type === 'string' ? error.type : '';
  return mapUpstreamErrorPayload(providerId, payload, secrets, statusByErrorType[type] ?? 502);
}
