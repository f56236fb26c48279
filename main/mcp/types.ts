// The MCP manager's public shapes. Types only and no node imports, so they can move to shared/api/ when the
// UI needs them (the bridge will carry server snapshots and status events as they are).

import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpElicitation, McpElicitationContent } from '../../shared/bridge/types.js';

/**
 * - `disabled`: `disabled: true` in the settings; not started.
 * - `connecting`: the process is starting or the handshake is running.
 * - `connected`: the handshake completed; tools are listed.
 * - `disconnected`: the server went away and a restart is scheduled, or it was stopped.
 * - `needs-sign-in`: a remote server that wants an OAuth sign-in (none stored, or the stored one expired and could
 *   not be refreshed); `message` says how.
 * - `error`: it cannot run until something changes (bad settings entry, missing command, gave up restarting);
 *   `message` says why.
 */
export type ServerState = 'disabled' | 'connecting' | 'connected' | 'disconnected' | 'needs-sign-in' | 'error';

export type ServerTransportKind = 'stdio' | 'streamableHttp' | 'sse';

export interface ServerStatus {
  state: ServerState;
  /** Why the server is in this state, for people: set for `error` and `disconnected`. */
  message?: string;
  /** A problem that did not stop the server, e.g. non-protocol text on stdout. */
  warning?: string;
}

export interface ServerSnapshot extends ServerStatus {
  name: string;
  /** Unset when the settings entry is invalid. */
  transport?: ServerTransportKind;
  toolCount: number;
  /** The child process of a running stdio server. */
  pid?: number;
  /** A remote server connected with a stored OAuth sign-in (which Sign out forgets). */
  signedIn?: boolean;
}

export interface SettingsProblem {
  /** Where the problem is, e.g. `mcpServers.fs.timeout`; `mcp_settings.json` for the whole file. */
  path: string;
  /** The server the problem belongs to; unset for file-level problems. */
  server?: string;
  message: string;
  /** `error`: the entry is not used. `warning`: the entry is used with a corrected value. */
  severity: 'error' | 'warning';
}

export interface ToolCallOptions {
  /** Aborting cancels the call on the server (notifications/cancelled) and returns an `Error:` result. */
  signal?: AbortSignal;
  /**
   * Who answers the server's questions (elicitation) during this call. Unset: the manager's prompts (the UI), or a
   * decline when nobody shows them. The hub passes its client's.
   */
  onElicitation?: ElicitationHandler;
  /** Called with each progress notification the server sends during the call (the call's timeout stays a hard cap). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * Who answers the server's sampling requests (`sampling/createMessage`) during this call. Unset: Switchyard's
   * own model, with the approval set for the server (sampling.ts). The hub passes its client's when it has one.
   */
  onSampling?: SamplingHandler;
}

/**
 * A form a server asks the person to fill in during a tool call (MCP elicitation, form mode): the UI's shape
 * without the id the prompts give it.
 */
export type ElicitationRequest = Omit<McpElicitation, 'id'>;

export type ElicitationContent = McpElicitationContent;

export type ElicitationAnswer =
  { action: 'accept'; content: ElicitationContent } | { action: 'decline' } | { action: 'cancel' };

/** `signal` aborts when the question no longer stands (the call ended, the server cancelled it). */
export type ElicitationHandler = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

/** A server's `sampling/createMessage` during a tool call: which server asks, and its params as sent. */
export interface SamplingRequest {
  server: string;
  params: CreateMessageRequestParams;
}

/**
 * Answers a sampling request, or throws an McpError (the server gets it as the JSON-RPC error). `signal` aborts
 * when the request no longer stands.
 */
export type SamplingHandler = (
  request: SamplingRequest,
  signal: AbortSignal,
) => Promise<CreateMessageResult | CreateMessageResultWithTools>;
