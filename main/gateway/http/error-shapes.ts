// The error body each protocol's clients understand. The interface's own routes (and /v1's OpenAI-compatible ones,
// whose clients read `error.message`) answer in the spec's envelope; the agent protocols answer as their vendor's
// API does, so that the vendor's SDK raises its own error class with our message: the OpenAI Responses API in
// OpenAI's shape, Anthropic Messages in Anthropic's, the Gemini API in Google's. A route says which in its config;
// every error of the route (authentication, validation, routing, upstream) goes out in that shape.
//
//   config: { errorShape: 'anthropic' }

import type { FastifyRequest } from 'fastify';
import type { ApiError } from '../../../shared/api/index.js';
import { geminiBases } from './api-bases.js';

export type ErrorShape = 'interface' | 'openai' | 'anthropic' | 'gemini';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The protocol whose error body the route answers with; absent means the interface's envelope. */
    errorShape?: ErrorShape;
  }
}

/** The shape of the route this request matched; for a request that matched none, judged by its path. */
export function errorShapeOf(request: FastifyRequest): ErrorShape {
  const configured = request.routeOptions.config.errorShape;
  if (configured && !request.is404) return configured;
  const path = request.url.split('?', 1)[0]!;
  // A request for the Gemini API that matched no route still gets its 404 in Google's shape.
  return geminiBases.some((base) => path.startsWith(`${base}/`)) ? 'gemini' : 'interface';
}

/** OpenAI's `error.type` for a status. */
export function openAIErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** Anthropic's `error.type` for a status (https://docs.anthropic.com/en/api/errors). */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    case 504:
      return 'timeout_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** Google's canonical status name for an HTTP status (google.rpc.Code). */
export function geminiErrorStatus(status: number): string {
  switch (status) {
    case 400:
    case 413:
    case 415:
      return 'INVALID_ARGUMENT';
    case 401:
      return 'UNAUTHENTICATED';
    case 402:
      return 'FAILED_PRECONDITION';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 405:
    case 501:
      return 'UNIMPLEMENTED';
    case 408:
    case 504:
      return 'DEADLINE_EXCEEDED';
    case 409:
      return 'ABORTED';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 499:
      return 'CANCELLED';
    case 503:
      return 'UNAVAILABLE';
    default:
      return status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION';
  }
}

/** The body of an error answer in `shape`. */
export function errorBody(shape: ErrorShape, error: ApiError): unknown {
  switch (shape) {
    case 'interface':
      return error.toBody();
    case 'openai':
      return {
        error: {
          message: error.message,
          type: openAIErrorType(error.status),
          param: typeof error.metadata.param === 'string' ? error.metadata.param : null,
          code: typeof error.metadata.code === 'string' ? error.metadata.code : null,
        },
      };
    case 'anthropic':
      return { type: 'error', error: { type: anthropicErrorType(error.status), message: error.message } };
    case 'gemini':
      return { error: { code: error.status, message: error.message, status: geminiErrorStatus(error.status) } };
  }
}
