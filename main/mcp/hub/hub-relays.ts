// What the hub passes on beyond tools, resources and prompts, for one client's session: log messages (filtered by
// the level this client set, `logger` defaulting to the server's name), completions (a prompt's hub name mapped
// back to the server's, a resource template sent to the server that lists it), resource templates (named as tools
// are, `uriTemplate` as the server wrote it) and subscriptions to resources (updates only to the sessions
// subscribed). What sessions share upstream — one log level per server, one subscription per URI — is HubUpstream.

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  ListResourceTemplatesRequestSchema,
  LoggingLevelSchema,
  McpError,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type LoggingLevel,
  type ProgressToken,
  type Prompt,
  type ResourceTemplate,
  type ServerCapabilities,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../common/index.js';
import type { Disposable } from '../../../shared/events/index.js';
import type { McpManager } from '../mcp-manager.js';
import type { ToolCallOptions } from '../types.js';
import { baseFunctionName } from '../tool-catalog.js';
import type { HubAccess } from './hub-access.js';

const severity = (level: LoggingLevel) => LoggingLevelSchema.options.indexOf(level);

/**
 * What the sessions of one hub share upstream: a server has one log level, the most verbose any session asked
 * for (each session then gets only what it asked for), and one subscription per URI, held while any session is
 * subscribed.
 */
export class HubUpstream {
  private readonly levels = new Map<object, LoggingLevel>();
  private applied?: LoggingLevel;
  private readonly subscribers = new Map<string, Set<object>>();

  constructor(private readonly manager: McpManager) {}

  setLogLevel(session: object, level: LoggingLevel): void {
    this.levels.set(session, level);
    const mostVerbose = [...this.levels.values()].reduce((a, b) => (severity(b) < severity(a) ? b : a));
    if (mostVerbose === this.applied) return;
    this.applied = mostVerbose;
    this.manager.relays.setLogLevel(mostVerbose);
  }

  async subscribe(session: object, server: string, uri: string): Promise<void> {
    const key = `${server}\n${uri}`;
    const sessions = this.subscribers.get(key) ?? new Set();
    this.subscribers.set(key, sessions);
    const first = sessions.size === 0;
    sessions.add(session);
    if (!first) return;
    try {
      await this.manager.relays.relayTo(server).subscribe(uri);
    } catch (error) {
      sessions.delete(session);
      if (sessions.size === 0) this.subscribers.delete(key);
      throw error;
    }
  }

  async unsubscribe(session: object, server: string, uri: string): Promise<void> {
    const key = `${server}\n${uri}`;
    const sessions = this.subscribers.get(key);
    if (!sessions?.delete(session) || sessions.size > 0) return;
    this.subscribers.delete(key);
    await this.manager.relays.relayTo(server).unsubscribe(uri);
  }

  /** The session ended: its level no longer counts (the servers keep theirs until asked again). */
  forget(session: object): void {
    this.levels.delete(session);
  }
}

/**
 * The capabilities a new session declares. Initialize is answered at once, before servers still starting have
 * said what they offer, so what the hub can always answer is declared always (logging, completions), and
 * subscriptions only when a server this client may use declared them at its last handshake (see decision 034).
 */
export function hubCapabilities(manager: McpManager, access: HubAccess): ServerCapabilities {
  const subscribe = manager
    .list()
    .some(
      (snapshot) =>
        access.allowsServer(snapshot.name) &&
        snapshot.state !== 'disabled' &&
        manager.serverConfig(snapshot.name) !== undefined &&
        manager.relays.relayTo(snapshot.name).capabilities()?.resources?.subscribe === true,
    );
  return {
    tools: { listChanged: true },
    resources: { listChanged: true, ...(subscribe ? { subscribe: true } : {}) },
    prompts: { listChanged: true },
    logging: {},
    completions: {},
  };
}

/**
 * A call's progress, for the client that asked with `token`: sent on the call's own stream (`send` is the request's
 * sendNotification) under the client's token, in order; `delivered()` before the result, which would otherwise
 * overtake the last of them and close the stream.
 */
export function relayProgress(
  token: ProgressToken | undefined,
  send: (notification: ServerNotification) => Promise<void>,
  logger: Logger,
): { options: Pick<ToolCallOptions, 'onProgress'>; delivered: () => Promise<void> } {
  let sent = Promise.resolve();
  if (token === undefined) return { options: {}, delivered: () => sent };
  const onProgress: ToolCallOptions['onProgress'] = (progress) => {
    sent = sent
      .then(() => send({ method: 'notifications/progress', params: { ...progress, progressToken: token } }))
      .catch((error: unknown) => logger.debug({ err: error }, 'MCP hub progress not delivered'));
  };
  return { options: { onProgress }, delivered: () => sent };
}

/** What the relays need of the session they serve. */
export interface RelayContext {
  server: Server;
  manager: McpManager;
  upstream: HubUpstream;
  logger: Logger;
  access(): HubAccess;
  /** The servers the client may use that are connected. */
  connectedServers(): string[];
  /** Resolves when the first lists may be answered (see hub-server.ts). */
  afterStartup(): Promise<void>;
  /** The server that listed resource `uri`, if one did. */
  listedOwner(uri: string): Promise<string | undefined>;
  findPrompt(name: string): Promise<{ server: string; prompt: Prompt } | undefined>;
  /** Sends a notification once the client is initialized; failures are logged. */
  tell(send: () => Promise<void>): void;
}

export interface SessionRelays extends Disposable {
  /** The server with a resource template that `uri` matches, if one has. */
  templateOwner(uri: string): Promise<string | undefined>;
}

export function relayServerFeatures(context: RelayContext): SessionRelays {
  const { server, manager, upstream } = context;
  const session = {};
  let logLevel: LoggingLevel | undefined;
  /** URI → the server it was subscribed at. */
  const subscribed = new Map<string, string>();

  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    logLevel = request.params.level;
    upstream.setLogLevel(session, logLevel);
    return {};
  });

  const listTemplates = async (): Promise<{ server: string; template: ResourceTemplate }[]> => {
    await context.afterStartup();
    const lists = await Promise.all(
      context.connectedServers().map(async (name) => {
        const templates = await manager.relays
          .relayTo(name)
          .listResourceTemplates()
          .catch((error: unknown) => {
            context.logger.debug({ server: name, err: error }, 'listing resource templates for the hub failed');
            return [];
          });
        return templates.map((template) => ({ server: name, template }));
      }),
    );
    return lists.flat();
  };
  const templateOwner = async (uri: string) =>
    (await listTemplates()).find(({ template }) => new UriTemplate(template.uriTemplate).match(uri) !== null)?.server;
  const ownerOf = async (uri: string) => {
    const owner = (await context.listedOwner(uri)) ?? (await templateOwner(uri));
    if (owner === undefined || !context.access().allowsServer(owner)) {
      throw new McpError(ErrorCode.InvalidParams, `There is no resource "${uri}" here (see resources/list).`);
    }
    return owner;
  };

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: (await listTemplates()).map(({ server: name, template }) => ({
      ...template,
      name: baseFunctionName(name, template.name),
    })),
  }));

  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref } = request.params;
    if (ref.type === 'ref/prompt') {
      const found = await context.findPrompt(ref.name);
      if (!found) throw new McpError(ErrorCode.InvalidParams, `There is no prompt "${ref.name}" here.`);
      return manager.relays
        .relayTo(found.server)
        .complete({ ...request.params, ref: { ...ref, name: found.prompt.name } });
    }
    const owner =
      (await listTemplates()).find(({ template }) => template.uriTemplate === ref.uri)?.server ??
      (await ownerOf(ref.uri));
    if (!context.access().allowsServer(owner)) {
      throw new McpError(ErrorCode.InvalidParams, `There is no resource template "${ref.uri}" here.`);
    }
    return manager.relays.relayTo(owner).complete(request.params);
  });

  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const uri = request.params.uri;
    const owner = await ownerOf(uri);
    if (!manager.relays.relayTo(owner).capabilities()?.resources?.subscribe) {
      throw new McpError(ErrorCode.InvalidParams, `The server of "${uri}" (${owner}) does not offer subscriptions.`);
    }
    if (subscribed.get(uri) === owner) return {};
    await upstream.subscribe(session, owner, uri);
    subscribed.set(uri, owner);
    return {};
  });
  const unsubscribe = async (uri: string) => {
    const owner = subscribed.get(uri);
    if (owner === undefined) return;
    subscribed.delete(uri);
    await upstream.unsubscribe(session, owner, uri);
  };
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    await unsubscribe(request.params.uri);
    return {};
  });

  const subscriptions: Disposable[] = [
    // A server may log without being asked to (no setLevel): those messages go to every client that may use it.
    manager.relays.onLogMessage(({ server: name, message }) => {
      if (!context.access().allowsServer(name)) return;
      if (logLevel !== undefined && severity(message.level) < severity(logLevel)) return;
      context.tell(() => server.sendLoggingMessage({ ...message, logger: message.logger ?? name }));
    }),
    manager.relays.onResourceUpdated(({ server: name, uri }) => {
      if (subscribed.get(uri) !== name) return;
      context.tell(() => server.sendResourceUpdated({ uri }));
    }),
  ];
  return {
    templateOwner,
    dispose: () => {
      for (const subscription of subscriptions.splice(0)) subscription.dispose();
      upstream.forget(session);
      for (const uri of [...subscribed.keys()]) {
        unsubscribe(uri).catch((error: unknown) =>
          context.logger.debug({ uri, err: error }, 'unsubscribing after a hub session ended failed'),
        );
      }
    },
  };
}
