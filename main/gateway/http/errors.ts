// Anything thrown → the ApiError that goes on the wire. Fastify's own errors (bad JSON, too large, wrong content
// type…) keep their 4xx status with our wording; anything unexpected is a 500 'Internal error', logged here and
// never detailed to the caller.

import type { Logger } from 'pino';
import { ApiError } from '../../../shared/api/index.js';

export interface ErrorContext {
  logger: Logger;
  bodyLimitBytes: number;
}

interface FrameworkError {
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
}

function frameworkMessage(code: string | undefined, fallback: string, context: ErrorContext): string {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty; a JSON object is required.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The request body is larger than the limit of ${context.bodyLimitBytes} bytes.`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Content-Type must be application/json.';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The Content-Length header does not match the body.';
    case 'FST_ERR_BAD_URL':
      return 'The URL is malformed.';
    default:
      return fallback;
  }
}

/** Describes an unexpected error for the log: class, code and message, never request data. */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { type: error.name, code: (error as { code?: unknown }).code, message: error.message, stack: error.stack };
  }
  return { type: typeof error, message: String(error) };
}

export function toApiError(error: unknown, context: ErrorContext): ApiError {
  if (error instanceof ApiError) return error;
  const framework = (error ?? {}) as FrameworkError;
  const status = framework.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = typeof framework.code === 'string' ? framework.code : undefined;
    const fallback = typeof framework.message === 'string' && framework.message ? framework.message : 'Bad request.';
    const message = error instanceof SyntaxError ? 'The request body is not valid JSON.' : fallback;
    return new ApiError(status, frameworkMessage(code, message, context));
  }
  context.logger.error({ err: describeError(error) }, 'internal error');
  return new ApiError(500, 'Internal error');
}
