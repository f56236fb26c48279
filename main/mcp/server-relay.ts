// What one server offers beyond tools, resources and prompts, for the hub to pass on: its log messages (at the
// level the hub's clients asked for), resource templates, completions, and subscriptions to resources. One per
// connection, living as long as it: the level and the subscriptions asked for are applied again to every new
// session of the server (a restarted server remembers neither), and what the server declared at its last
// handshake is kept after it goes, so that the hub can tell what it offers before it is back. A call's progress
// is routed here by a token of ours rather than by the SDK's `onprogress`, which drops a notification that arrives
// in the same read as the call's result (it forgets the token when it reads the result, and handles notifications
// a tick later).

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  LoggingMessageNotificationSchema,
  ProgressNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type CompleteRequest,
  type CompleteResult,
  type LoggingLevel,
  type LoggingMessageNotification,
  type ResourceTemplate,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../common/index.js';
import { Emitter } from '../../shared/events/index.js';
import { collectPages } from './paginate.js';
import type { ToolCallOptions } from './types.js';

export type LogMessage = LoggingMessageNotification['params'];

export class ServerRelay {
  private readonly logMessageEmitter = new Emitter<LogMessage>();
  /** The server sent a log message (`notifications/message`). */
  readonly onLogMessage = this.logMessageEmitter.event;
  private readonly resourceUpdatedEmitter = new Emitter<string>();
  /** A resource subscribed to changed (`notifications/resources/updated`); the listener gets its URI. */
  readonly onResourceUpdated = this.resourceUpdatedEmitter.event;
  private declared?: ServerCapabilities;
  private level?: LoggingLevel;
  private readonly subscriptions = new Set<string>();
  private readonly progressListeners = new Map<string, NonNullable<ToolCallOptions['onProgress']>>();
  private nextProgressToken = 1;

  /** `readyClient` throws, with a message for people, when the server is not connected. */
  constructor(
    private readonly readyClient: () => Client,
    private readonly requestOptions: () => RequestOptions,
    private readonly logger: () => Logger,
  ) {}

  /** Listens to a new session's notifications; `isCurrent` turns false once a newer session replaced it. */
  watch(client: Client, isCurrent: () => boolean): void {
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      if (isCurrent()) this.logMessageEmitter.fire(notification.params);
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      if (isCurrent()) this.resourceUpdatedEmitter.fire(notification.params.uri);
    });
    client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
      const { progressToken, progress, total, message } = notification.params;
      const listener = this.progressListeners.get(String(progressToken));
      listener?.({
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      });
    });
  }

  /**
   * Runs `request` with a progress token in its `_meta` when there is an `onProgress` to tell; the token is
   * forgotten only after the request's result has been taken, so no notification sent before it is lost.
   */
  async withProgress<T>(
    onProgress: ToolCallOptions['onProgress'],
    request: (meta: { _meta?: { progressToken: string } }) => Promise<T>,
  ): Promise<T> {
    if (!onProgress) return request({});
    const progressToken = `switchyard-${this.nextProgressToken++}`;
    this.progressListeners.set(progressToken, onProgress);
    try {
      return await request({ _meta: { progressToken } });
    } finally {
      this.progressListeners.delete(progressToken);
    }
  }

  /** A session completed its handshake: remembers what it declared and applies the level and subscriptions. */
  connected(client: Client): void {
    this.declared = client.getServerCapabilities();
    const requests = [
      ...(this.level && this.declared?.logging ? [client.setLoggingLevel(this.level, this.requestOptions())] : []),
      ...[...this.subscriptions].map((uri) => client.subscribeResource({ uri }, this.requestOptions())),
    ];
    Promise.all(requests).catch((error: unknown) =>
      this.logger().debug({ err: error }, 'applying the log level or subscriptions to an MCP server failed'),
    );
  }

  /** What the server declared at its last handshake; undefined until it first connected. */
  capabilities(): ServerCapabilities | undefined {
    return this.declared;
  }

  /** The least severe level the server should send; applied now when connected, and at every later handshake. */
  setLogLevel(level: LoggingLevel): void {
    this.level = level;
    const client = this.connectedClient(); // unset: applied when it connects
    if (!client?.getServerCapabilities()?.logging) return;
    client.setLoggingLevel(level, this.requestOptions()).catch((error: unknown) => {
      this.logger().debug({ err: error }, 'setting the log level of an MCP server failed');
    });
  }

  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    const client = this.readyClient();
    if (!client.getServerCapabilities()?.resources) return [];
    const listPage = (params?: { cursor: string }) => client.listResourceTemplates(params, this.requestOptions());
    return collectPages(listPage, (page) => page.resourceTemplates);
  }

  /** Empty for a server that does not declare completions. */
  async complete(params: CompleteRequest['params']): Promise<CompleteResult> {
    const client = this.readyClient();
    if (!client.getServerCapabilities()?.completions) return { completion: { values: [] } };
    return client.complete(params, this.requestOptions());
  }

  async subscribe(uri: string): Promise<void> {
    await this.readyClient().subscribeResource({ uri }, this.requestOptions());
    this.subscriptions.add(uri);
  }

  /** A server not connected has no subscription left to end. */
  async unsubscribe(uri: string): Promise<void> {
    if (!this.subscriptions.delete(uri)) return;
    await this.connectedClient()?.unsubscribeResource({ uri }, this.requestOptions());
  }

  private connectedClient(): Client | undefined {
    try {
      return this.readyClient();
    } catch {
      return undefined;
    }
  }
}
