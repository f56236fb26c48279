// The JSON-RPC errors a server gets back for a sampling request Switchyard does not answer. A person's decline is
// -1, the code the MCP specification's sampling section gives for "User rejected sampling request"; a request
// refused by the settings (or with nobody to answer it) is an invalid request, its message saying what to change.
// The SDK answers a handler's error with its `code` and `message` as they are: these carry the message alone,
// where the SDK's McpError would put "MCP error <code>: " before it (and again at every hop of the hub).

import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** The specification's code for a sampling request the user rejected. */
export const userRejectedCode = -1;

export class SamplingError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'SamplingError';
  }
}

export function samplingRejected(message: string): SamplingError {
  return new SamplingError(userRejectedCode, message);
}

export function samplingRefused(message: string): SamplingError {
  return new SamplingError(ErrorCode.InvalidRequest, message);
}

/** The request's params cannot be sent to a model as they are. */
export function samplingInvalid(message: string): SamplingError {
  return new SamplingError(ErrorCode.InvalidParams, message);
}

/** The model call failed (the gateway or the upstream). */
export function samplingFailed(message: string): SamplingError {
  return new SamplingError(ErrorCode.InternalError, message);
}

/** A hub client's error, passed on to the server as the client sent it. */
export function relayedSamplingError(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  const prefix = `MCP error ${error.code}: `;
  const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return new SamplingError(error.code, message, error.data);
}
