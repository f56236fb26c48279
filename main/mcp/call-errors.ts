// The text after `Error:` for a tool call that threw: a timeout, a closed connection, a protocol error. Apart from
// tool-results.ts because it needs the MCP SDK's error class at run time, and only a running connection needs it.

import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

export interface CallContext {
  server: string;
  tool: string;
  timeoutSeconds: number;
  aborted: boolean;
}

/** The text after `Error:` for a call that threw. */
export function describeCallError(error: unknown, context: CallContext): string {
  const where = `tool "${context.tool}" on server "${context.server}"`;
  if (context.aborted) return `the call to ${where} was cancelled.`;
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      return `${where} timed out after ${context.timeoutSeconds} s (the server's "timeout" setting); the call was cancelled.`;
    }
    if (error.code === ErrorCode.ConnectionClosed) {
      return `server "${context.server}" closed the connection during the call to "${context.tool}" (it may have crashed; see its log).`;
    }
    return error.message; // "MCP error -32602: …", which tells the model what was wrong with its arguments
  }
  return error instanceof Error ? error.message : String(error);
}
