// The hub over MCP's Streamable HTTP transport, for the gateway's `/mcp` route: one session per client (the SDK's
// transport keeps the session id and the client's notification stream), each tied to the gateway key that
// opened it, so that another key cannot use a session id it learnt. The gateway authenticates the key and checks
// Host and Origin before a request gets here; the caller's access is read again on every request, so a key's
// rules apply from its next request on. Each session's streams can be resumed after a dropped connection: events
// carry ids, each stream starts with a priming event and a `retry` hint, and `Last-Event-ID` replays what was missed
// (hub-event-store.ts).

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpManager } from '../mcp-manager.js';
import { HubAccess } from './hub-access.js';
import { HubEventStore } from './hub-event-store.js';
import type { HubUpstream } from './hub-relays.js';
import type { HubOptions, HubSession } from './hub-server.js';

/**
 * What a new session needs: the MCP SDK's server side, loaded by the first client that starts one rather than with
 * the gateway, so that a gateway whose /mcp nobody uses does not carry the SDK.
 */
async function loadSessionParts() {
  const [transport, types, hubServer, hubRelays] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('./hub-server.js'),
    import('./hub-relays.js'),
  ]);
  return {
    Transport: transport.StreamableHTTPServerTransport,
    isInitializeRequest: types.isInitializeRequest,
    createHubSession: hubServer.createHubSession,
    HubUpstream: hubRelays.HubUpstream,
    protocolVersions: { supported: types.SUPPORTED_PROTOCOL_VERSIONS, latest: types.LATEST_PROTOCOL_VERSION },
  };
}
let sessionParts: ReturnType<typeof loadSessionParts> | undefined;
/** The MCP versions the SDK speaks, known once the first session loaded it. */
let supportedProtocolVersions: readonly string[] = [];

/** One request to `/mcp`, from an authenticated key; the gateway handed over the raw response. */
export interface HubHttpExchange {
  request: IncomingMessage;
  response: ServerResponse;
  /** The parsed JSON body of a POST. */
  body: unknown;
  caller: { keyId: string; keyName: string; access: readonly string[] };
}

/** How long a client whose stream dropped waits before it reconnects (the SSE `retry` field). */
const resumeRetryMs = 1_000;

interface HttpSession {
  hub: HubSession;
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
  /** What initialize agreed on. */
  protocolVersion: string;
}

export interface HttpHubOptions extends HubOptions {
  /** Open sessions kept; the least recently used is closed when a new one would exceed it. Default 100. */
  maxSessions?: number;
}

export class McpHttpHub {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly maxSessions: number;
  /** Shared by the sessions; made with the first one, with the SDK. */
  private upstream?: HubUpstream;

  constructor(
    private readonly manager: McpManager,
    private readonly options: HttpHubOptions,
  ) {
    this.maxSessions = options.maxSessions ?? 100;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  async handle(exchange: HubHttpExchange): Promise<void> {
    const { request, response, body } = exchange;
    const caller = {
      keyId: exchange.caller.keyId,
      keyName: exchange.caller.keyName,
      access: new HubAccess(exchange.caller.access),
    };
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = this.sessions.get(sessionId);
      // Another key's session is answered as an unknown one: a session id alone must not tell anything.
      if (!session || session.hub.caller.keyId !== caller.keyId) {
        return sendJsonRpcError(response, 404, -32001, 'Session not found: start a new one with initialize.');
      }
      session.hub.caller = caller;
      session.lastUsed = Date.now();
      speakSessionVersion(request, session.protocolVersion, supportedProtocolVersions);
      return session.transport.handleRequest(request, response, body);
    }
    const { Transport, isInitializeRequest, createHubSession, HubUpstream, protocolVersions } = await (sessionParts ??=
      loadSessionParts());
    supportedProtocolVersions = protocolVersions.supported;
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      return sendJsonRpcError(
        response,
        400,
        -32000,
        'Bad Request: no Mcp-Session-Id header; a session starts with an initialize request (POST).',
      );
    }
    // As the SDK's server answers initialize: the version asked for when it is one it speaks, else the latest.
    const requested = body.params.protocolVersion;
    const protocolVersion = protocolVersions.supported.includes(requested) ? requested : protocolVersions.latest;
    this.upstream ??= new HubUpstream(this.manager);
    const hub = createHubSession(this.manager, caller, this.options, this.upstream);
    const transport: StreamableHTTPServerTransport = new Transport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new HubEventStore(),
      retryInterval: resumeRetryMs,
      onsessioninitialized: (id) => {
        this.sessions.set(id, { hub, transport, lastUsed: Date.now(), protocolVersion });
        this.evictBeyondLimit();
      },
      onsessionclosed: (id) => this.forget(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.forget(transport.sessionId);
      hub.dispose();
    };
    await hub.server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  /** Closes every session (their notification streams end); new ones may still start. */
  async closeSessions(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((session) => closeQuietly(session)));
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    session.hub.dispose();
  }

  private evictBeyondLimit(): void {
    while (this.sessions.size > this.maxSessions) {
      const [oldestId, oldest] = [...this.sessions.entries()].reduce((a, b) => (b[1].lastUsed < a[1].lastUsed ? b : a));
      this.sessions.delete(oldestId);
      void closeQuietly(oldest);
    }
  }
}

async function closeQuietly(session: HttpSession): Promise<void> {
  session.hub.dispose();
  await session.transport.close().catch(() => undefined);
}

/** An error before the SDK's transport is involved, in JSON-RPC's shape as the transport writes its own. */
function sendJsonRpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * A request of a session is read as the version its initialize agreed on when its MCP-Protocol-Version header names
 * another version the hub speaks: how the SDK writes a stream (primed with an event id and `retry` so that the
 * client can resume, from 2025-11-25 on) follows the header, and a client that agreed on 2025-11-25 can resume
 * whatever a later request's header says. An unsupported header is left for the SDK to refuse (400).
 */
function speakSessionVersion(request: IncomingMessage, agreed: string, supported: readonly string[]): void {
  const header = request.headers['mcp-protocol-version'];
  if (typeof header !== 'string' || header === agreed || !supported.includes(header)) return;
  request.headers['mcp-protocol-version'] = agreed;
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index]?.toLowerCase() === 'mcp-protocol-version') raw[index + 1] = agreed;
  }
}
