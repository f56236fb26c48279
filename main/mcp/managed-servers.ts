// The servers the settings file names, kept in step with it: an entry added gets a connection, one removed is
// stopped, one changed in a way that needs it is stopped and started again, one whose timeout or tool lists changed
// is updated in place. McpManager decides when the file is read (start, an edit, the watcher); this applies what
// it says, and answers which servers there are and how each is.

import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../common/index.js';
import { Emitter, type Disposable } from '../../shared/events/index.js';
import { compareConfigs } from './config-diff.js';
import type { ServerConnection, ServerConnectionOptions } from './server-connection.js';
import type { LogMessage, ServerRelay } from './server-relay.js';
import type { SettingsFile } from './settings-file.js';
import { formatProblem, type ParsedEntry } from './settings-schema.js';
import type { ServerSnapshot, SettingsProblem } from './types.js';

/**
 * The connection code, and the MCP SDK with it, is loaded when the settings first name a server: a gateway with no
 * MCP servers never loads the SDK (several MB of resident memory, for as long as the process runs).
 */
let connectionClass: Promise<typeof ServerConnection> | undefined;
const loadConnectionClass = () =>
  (connectionClass ??= import('./server-connection.js').then((loaded) => loaded.ServerConnection));

interface ManagedServer {
  name: string;
  problems: SettingsProblem[];
  /** Unset when the entry is invalid. */
  connection?: ServerConnection;
  subscriptions: Disposable[];
}

export interface ToolsChangedEvent {
  server: string;
}

export interface ListChangedEvent {
  server: string;
  list: 'resources' | 'prompts';
}

export interface LogMessageEvent {
  server: string;
  message: LogMessage;
}

export interface ResourceUpdatedEvent {
  server: string;
  uri: string;
}

/** Each server's relay (server-relay.ts) and their events, for the hub. */
export type ServerRelays = Pick<ManagedServers, 'relayTo' | 'setLogLevel' | 'onLogMessage' | 'onResourceUpdated'>;

export interface ManagedServersOptions {
  logger: Logger;
  /** Manage only these servers and ignore the rest of the file. */
  only?: string[];
  connectionOptions: ServerConnectionOptions;
}

export class ManagedServers {
  private readonly servers = new Map<string, ManagedServer>();
  private readonly serverStatusEmitter = new Emitter<ServerSnapshot>();
  private readonly toolsChangedEmitter = new Emitter<ToolsChangedEvent>();
  private readonly listChangedEmitter = new Emitter<ListChangedEvent>();
  private readonly serversChangedEmitter = new Emitter<ServerSnapshot[]>();
  private readonly logMessageEmitter = new Emitter<LogMessageEvent>();
  private readonly resourceUpdatedEmitter = new Emitter<ResourceUpdatedEvent>();
  /** The level set for every server's log messages, for servers added later too. */
  private logLevel?: LoggingLevel;
  private fileProblems: SettingsProblem[] = [];
  private appliedText: string | undefined;

  /** See McpManager's events of the same names. */
  readonly onServerStatus = this.serverStatusEmitter.event;
  readonly onServersChanged = this.serversChangedEmitter.event;
  readonly onToolsChanged = this.toolsChangedEmitter.event;
  readonly onListChanged = this.listChangedEmitter.event;
  readonly onLogMessage = this.logMessageEmitter.event;
  readonly onResourceUpdated = this.resourceUpdatedEmitter.event;

  constructor(private readonly options: ManagedServersOptions) {}

  /** Stops every server, waiting until their processes are gone; the next file applied starts afresh. */
  async stopAll(): Promise<void> {
    const servers = [...this.servers.values()];
    this.servers.clear();
    this.appliedText = undefined;
    await Promise.all(servers.map((server) => this.retire(server)));
  }

  list(): ServerSnapshot[] {
    return [...this.servers.values()].map((server) => snapshotOf(server));
  }

  server(name: string): ServerSnapshot | undefined {
    const server = this.servers.get(name);
    return server && snapshotOf(server);
  }

  /** The connections of the valid entries. */
  connections(): ServerConnection[] {
    return [...this.servers.values()].flatMap((server) => (server.connection ? [server.connection] : []));
  }

  /** Undefined for an unknown or invalid entry. */
  find(name: string): ServerConnection | undefined {
    return this.servers.get(name)?.connection;
  }

  /** File-level problems (malformed JSON) and every entry's problems. */
  problems(): SettingsProblem[] {
    return [...this.fileProblems, ...[...this.servers.values()].flatMap((server) => server.problems)];
  }

  connection(name: string): ServerConnection {
    const connection = this.servers.get(name)?.connection;
    if (!connection) throw new Error(`There is no MCP server "${name}"${this.invalidSuffix(name)}.`);
    return connection;
  }

  /** A server's templates, completions, subscriptions and what it declared; throws for an unknown server. */
  relayTo(name: string): ServerRelay {
    return this.connection(name).relay;
  }

  /** The least severe log level every server (and every one added later) should send. */
  setLogLevel(level: LoggingLevel): void {
    this.logLevel = level;
    for (const connection of this.connections()) connection.relay.setLogLevel(level);
  }

  /** Why a server the file names has no connection, for a message: its entry's errors. */
  invalidSuffix(name: string): string {
    const problems = this.servers.get(name)?.problems.filter((problem) => problem.severity === 'error') ?? [];
    return problems.length === 0 ? '' : ` (its settings entry is invalid: ${problems.map(formatProblem).join('; ')})`;
  }

  /** Applies what the file says: only what changed, and nothing while it does not parse. */
  async apply(file: SettingsFile): Promise<void> {
    if (file.text === this.appliedText && file.raw) return; // our own write, or a save without changes
    const fileProblems = file.problems.filter((problem) => problem.server === undefined);
    this.fileProblems = fileProblems;
    for (const problem of fileProblems) {
      this.options.logger.warn(`MCP settings: ${file.path}: ${problem.path}: ${problem.message}`);
    }
    // A half-saved or mistyped file must not stop servers that were running fine: keep them until it parses.
    if (!file.raw && this.appliedText !== undefined) return;
    this.appliedText = file.text;

    const only = this.options.only;
    const entries = only ? file.entries.filter((entry) => only.includes(entry.name)) : file.entries;
    const names = new Set(entries.map((entry) => entry.name));
    const removed = [...this.servers.values()].filter((server) => !names.has(server.name));
    const added = entries.filter((entry) => !this.servers.has(entry.name));
    const Connection = entries.some((entry) => entry.config) ? await loadConnectionClass() : undefined;
    await Promise.all([
      ...removed.map(async (server) => {
        this.servers.delete(server.name);
        await this.retire(server);
      }),
      ...entries.map((entry) => this.applyEntry(entry, Connection)),
    ]);
    if (removed.length > 0 || added.length > 0) this.serversChangedEmitter.fire(this.list());
  }

  /** `Connection`: loaded whenever `entry.config` is set. */
  private async applyEntry(entry: ParsedEntry, Connection: typeof ServerConnection | undefined): Promise<void> {
    for (const problem of entry.problems) this.options.logger.warn(`MCP settings: ${formatProblem(problem)}`);
    const current = this.servers.get(entry.name);
    const config = entry.config;
    if (current?.connection && config) {
      const before = current.connection.config;
      const change = compareConfigs(before, config);
      current.problems = entry.problems;
      if (change !== 'restart') {
        current.connection.updateSettings(config);
        if (before.disabled !== config.disabled) {
          if (config.disabled) await current.connection.stop();
          else current.connection.start();
        }
        const listsChanged =
          String(before.autoApprove) !== String(config.autoApprove) ||
          String(before.disabledTools) !== String(config.disabledTools);
        if (listsChanged) {
          this.toolsChangedEmitter.fire({ server: entry.name });
        }
        return;
      }
    }
    if (current) await this.retire(current);
    const server: ManagedServer = { name: entry.name, problems: entry.problems, subscriptions: [] };
    this.servers.set(entry.name, server);
    if (config && Connection) this.attach(server, new Connection(config, this.options.connectionOptions));
    this.serverStatusEmitter.fire(snapshotOf(server));
  }

  private attach(server: ManagedServer, connection: ServerConnection): void {
    server.connection = connection;
    server.subscriptions.push(
      connection.onStatusChanged(() => this.serverStatusEmitter.fire(snapshotOf(server))),
      connection.onToolsChanged(() => this.toolsChangedEmitter.fire({ server: server.name })),
      connection.onListChanged((list) => this.listChangedEmitter.fire({ server: server.name, list })),
      connection.relay.onLogMessage((message) => this.logMessageEmitter.fire({ server: server.name, message })),
      connection.relay.onResourceUpdated((uri) => this.resourceUpdatedEmitter.fire({ server: server.name, uri })),
    );
    if (this.logLevel) connection.relay.setLogLevel(this.logLevel);
    if (!connection.config.disabled) connection.start();
  }

  /** Stops a server that is being removed or replaced; its last status and tools-changed events still go out. */
  private async retire(server: ManagedServer): Promise<void> {
    await server.connection?.stop();
    for (const subscription of server.subscriptions.splice(0)) subscription.dispose();
  }
}

function snapshotOf(server: ManagedServer): ServerSnapshot {
  const errors = server.problems.filter((problem) => problem.severity === 'error');
  const warnings = server.problems.filter((problem) => problem.severity === 'warning').map(formatProblem);
  if (!server.connection) {
    return { name: server.name, state: 'error', message: errors.map(formatProblem).join('; '), toolCount: 0 };
  }
  const snapshot = server.connection.snapshot();
  const warning = [...warnings, ...(snapshot.warning ? [snapshot.warning] : [])].join('; ');
  return { ...snapshot, ...(warning ? { warning } : {}) };
}
