// Whatever a handler throws becomes one serialisable `{code, message}`: it must cross IPC and HTTP unchanged.
// Messages of unexpected errors stay in the log; the UI gets a generic line.

import { z } from 'zod';
import { ApiError } from '../../shared/api/index.js';
import type { BridgeErrorCode, BridgeErrorInfo } from '../../shared/bridge/transport.js';
import type { Logger } from '../common/index.js';
import { ChatError } from '../chat/index.js';

/** Thrown by handlers for a failure with a code of its own. */
export class BridgeFailure extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeFailure';
  }
}

export const codeOfStatus: Record<number, BridgeErrorCode | undefined> = {
  400: 'invalid-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
};

export function toBridgeError(error: unknown, logger: Logger, channel: string): BridgeErrorInfo {
  if (error instanceof BridgeFailure || error instanceof ChatError) return { code: error.code, message: error.message };
  if (error instanceof z.ZodError) return { code: 'invalid-request', message: describeIssues(error) };
  if (error instanceof ApiError) {
    return {
      code: codeOfStatus[error.status] ?? (error.status >= 500 ? 'unavailable' : 'invalid-request'),
      message: error.message,
    };
  }
  logger.error({ err: error, channel }, 'a bridge handler failed');
  return { code: 'internal', message: `Something went wrong in ${channel}; the log has the details.` };
}

/** `text: Too big: …; images.0: must be a base64 data URL …` */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

export const httpStatusOf: Record<BridgeErrorCode, number> = {
  'invalid-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  'unknown-channel': 404,
  conflict: 409,
  internal: 500,
  unavailable: 503,
  transport: 502,
};
