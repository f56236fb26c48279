// Gemini's error answers → ApiError. Statuses map as for every provider (../http/upstream-errors.ts), with two
// Gemini quirks: a bad API key comes as 400 INVALID_ARGUMENT (reason API_KEY_INVALID), which must reach our caller
// as the provider's failure (502), not as "your request was bad"; and a 429 says when to retry in the body
// (google.rpc.RetryInfo `retryDelay: "17s"`), not in a Retry-After header.

import { mapUpstreamError, type UpstreamError, type UpstreamErrorResponse } from '../http/upstream-errors.js';

interface GeminiErrorDetail {
  '@type'?: unknown;
  reason?: unknown;
  retryDelay?: unknown;
}

function detailsOf(body: string): GeminiErrorDetail[] {
  try {
    let json: unknown = JSON.parse(body);
    if (Array.isArray(json)) json = json[0];
    const details = (json as { error?: { details?: unknown } } | null)?.error?.details;
    return Array.isArray(details) ? (details as GeminiErrorDetail[]) : [];
  } catch {
    return [];
  }
}

export function mapGeminiError(response: UpstreamErrorResponse): UpstreamError {
  const details = detailsOf(response.body);
  const keyRejected = details.some((detail) => detail.reason === 'API_KEY_INVALID');
  const headers = { ...response.headers };
  if (response.status === 429 && headers['retry-after'] === undefined) {
    const delay = details.find((detail) => typeof detail.retryDelay === 'string')?.retryDelay as string | undefined;
    const seconds = delay ? Number.parseFloat(delay) : Number.NaN;
    if (Number.isFinite(seconds) && seconds >= 0) headers['retry-after'] = String(Math.ceil(seconds));
  }
  return mapUpstreamError({ ...response, headers, ...(keyRejected ? { meaning: 401 } : {}) });
}
