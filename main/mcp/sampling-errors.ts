// The JSON-RPC errors a server gets back for a sampling request Switchyard does not answer. A person's decline is
// -1, the code the MCP specification's sampling section gives for "User rejected sampling request"; a request
// refused by the settings (or with nobody to answer it) is an invalid request, its message saying what to change.
// The SDK answers a handler's error with its `code` and `message` as they are: these carry the message alone,
// where the SDK's McpError would put "MCP error <code>: " before it (and again at every hop of the hub).

import type { McpError } from '@modelcontextprotocol/sdk/types.js';

// JSON-RPC's codes, as the SDK's ErrorCode has them: written out, because the app builds its MCP manager (and with it
// these errors) at start, and the SDK is loaded only once a server is configured (decision 018).
const invalidRequest = -32600;
const invalidParams = -32602;
const internalError = -32603;

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
  return new SamplingError(invalidRequest, message);
}

/** The request's params cannot be sent to a model as they are. */
export function samplingInvalid(message: string): SamplingError {
  return new SamplingError(invalidParams, message);
}

/** The model call failed (the gateway or the upstream). */
export function samplingFailed(message: string): SamplingError {
  return new SamplingError(internalError, message);
}

/**
 * A hub client's error, passed on to the server as the client sent it. `McpError`: the SDK's class, given by the hub
 * (which has the SDK loaded).
 */
export function relayedSamplingError(error: unknown, mcpError: typeof McpError): unknown {
  if (!(error instanceof mcpError)) return error;
  const prefix = `MCP error ${error.code}: `;
  const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return new SamplingError(error.code, message, error.data);
}
