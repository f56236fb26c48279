// All of the user's MCP servers: reads `<data-dir>/mcp_settings.json`, runs every enabled server, applies
// edits to the file as they happen (only what changed), and offers their tools to the chat as one catalog.
// `stop()` stops every server and the watcher; nothing it started outlives it.

import { mkdir } from 'node:fs/promises';
import type { Prompt, ReadResourceResult, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../app/index.js';
import { compareConfigs } from './config-diff.js';
import { Listeners, type Dispose } from './listeners.js';
import { formatLogEntry, type LogEntry } from './log-buffer.js';
import { serverSearchPath } from './login-shell-path.js';
import { defaultRestartPolicy, type RestartPolicy } from './restart-policy.js';
import { ServerConnection, type ServerConnectionOptions } from './server-connection.js';
import { readSettingsFile, settingsFilePath } from './settings-file.js';
import { defaultStartupTimeoutSeconds, formatProblem, type ParsedEntry, type ServerConfig } from './settings-schema.js';
import { watchSettingsFile } from './settings-watcher.js';
import { ToolCatalog } from './tool-catalog.js';
import { errorResult, type ToolResult } from './tool-results.js';
import type { ServerSnapshot, SettingsProblem, ToolCallOptions } from './types.js';

export interface McpManagerOptions {
  dataDir: string;
  logger: Logger;
  /** Apply edits of the settings file as they happen (default true; the short-lived CLI turns it off). */
  watch?: boolean;
  /** Start-up and handshake limit for entries without `startupTimeout` (default 30 s). */
  startupTimeoutMs?: number;
  restartPolicy?: Partial<RestartPolicy>;
  /** Manage only these servers and ignore the rest of the file (the CLI's `mcp tools NAME`). */
  only?: string[];
  /** Where `${env:VAR}` is looked up (default process.env). */
  environment?: NodeJS.ProcessEnv;
  /** The PATH commands are looked up in (default: ours plus the login shell's). */
  searchPath?: () => Promise<string>;
  clientInfo?: { name: string; version: string };
  /** Debounce of file-change events. */
  watchDebounceMs?: number;
}

interface ManagedServer {
  name: string;
  problems: SettingsProblem[];
  /** Unset when the entry is invalid. */
  connection?: ServerConnection;
  disposeListeners: Dispose[];
}

export interface ToolsChangedEvent {
  server: string;
}

export class McpManager {
  private readonly servers = new Map<string, ManagedServer>();
  private readonly serverStatus = new Listeners<ServerSnapshot>();
  private readonly toolsChanged = new Listeners<ToolsChangedEvent>();
  private readonly serversChanged = new Listeners<ServerSnapshot[]>();
  private readonly connectionOptions: ServerConnectionOptions;
  private fileProblems: SettingsProblem[] = [];
  private appliedText: string | undefined;
  private disposeWatcher?: Dispose;
  private started = false;
  /** Reloads run one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: McpManagerOptions) {
    this.connectionOptions = {
      logger: options.logger,
      defaultStartupTimeoutMs: options.startupTimeoutMs ?? defaultStartupTimeoutSeconds * 1000,
      restartPolicy: { ...defaultRestartPolicy, ...options.restartPolicy },
      environment: options.environment ?? process.env,
      searchPath: options.searchPath ?? serverSearchPath,
      clientInfo: options.clientInfo ?? { name: 'Switchyard', version: '0.1.0' },
    };
  }

  get settingsPath(): string {
    return settingsFilePath(this.options.dataDir);
  }

  /** Reads the settings and starts every enabled server; does not wait for them to connect. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (this.options.watch ?? true) {
      // The folder must exist to be watched; the first reload creates the file in it.
      await mkdir(this.options.dataDir, { recursive: true });
      try {
        this.disposeWatcher = watchSettingsFile(this.options.dataDir, () => void this.reload(), {
          logger: this.options.logger,
          ...(this.options.watchDebounceMs === undefined ? {} : { debounceMs: this.options.watchDebounceMs }),
        });
      } catch (error) {
        // Out of inotify watches, say: servers still run, edits apply on the next start.
        this.options.logger.warn({ err: error }, 'cannot watch the MCP settings file; edits apply after a restart');
      }
    }
    await this.reload();
  }

  /** Stops the watcher and every server, waiting until their processes are gone. */
  async stop(): Promise<void> {
    this.started = false;
    this.disposeWatcher?.();
    this.disposeWatcher = undefined;
    await this.queue;
    const servers = [...this.servers.values()];
    this.servers.clear();
    this.appliedText = undefined;
    await Promise.all(servers.map((server) => this.retire(server)));
  }

  /** Re-reads the file and applies what changed. Called by the watcher; callable after an edit of our own. */
  reload(): Promise<void> {
    this.queue = this.queue.then(
      () => this.applySettings(),
      () => this.applySettings(),
    );
    return this.queue;
  }

  /** Resolves when every started server is connected or has failed for good (bounded by start-up timeouts). */
  async waitUntilSettled(): Promise<ServerSnapshot[]> {
    await this.queue;
    await Promise.all([...this.servers.values()].map((server) => server.connection?.whenSettled()));
    return this.list();
  }

  list(): ServerSnapshot[] {
    return [...this.servers.values()].map((server) => snapshotOf(server));
  }

  server(name: string): ServerSnapshot | undefined {
    const server = this.servers.get(name);
    return server && snapshotOf(server);
  }

  /** The settings a server runs with (after validation); undefined for an unknown or invalid entry. */
  serverConfig(name: string): ServerConfig | undefined {
    return this.servers.get(name)?.connection?.config;
  }

  /**
   * Stops a server and starts it again, its restart count from zero: the UI's restart button. Throws for an
   * unknown, invalid or disabled server.
   */
  async restart(name: string): Promise<ServerSnapshot> {
    const connection = this.connection(name);
    if (connection.config.disabled) throw new Error(`Server "${name}" is disabled: enable it to start it.`);
    await connection.stop();
    connection.start();
    return this.server(name) ?? connection.snapshot();
  }

  /** File-level problems (malformed JSON) and every entry's problems. */
  problems(): SettingsProblem[] {
    return [...this.fileProblems, ...[...this.servers.values()].flatMap((server) => server.problems)];
  }

  onServerStatus(listener: (snapshot: ServerSnapshot) => void): Dispose {
    return this.serverStatus.add(listener);
  }

  /** Servers were added to or removed from the settings; the listener gets the new list. */
  onServersChanged(listener: (servers: ServerSnapshot[]) => void): Dispose {
    return this.serversChanged.add(listener);
  }

  /** A server's tools changed (connected, crashed, `tools/list_changed`, or its autoApprove was edited). */
  onToolsChanged(listener: (event: ToolsChangedEvent) => void): Dispose {
    return this.toolsChanged.add(listener);
  }

  listTools(name: string): Tool[] {
    return this.connection(name).toolList();
  }

  /** Never throws: every failure, including an unknown server, comes back as an `Error:` result. */
  async callTool(
    name: string,
    tool: string,
    args: Record<string, unknown> = {},
    options: ToolCallOptions = {},
  ): Promise<ToolResult> {
    const connection = this.servers.get(name)?.connection;
    if (!connection) return errorResult(`there is no MCP server "${name}"${this.invalidSuffix(name)}.`);
    return connection.callTool(tool, args, options);
  }

  /** Calls a catalog function as the model named it, with its JSON arguments string. */
  async callFunctionTool(functionName: string, argumentsJson: string, options: ToolCallOptions = {}) {
    const entry = this.toolCatalog().resolve(functionName);
    if (!entry) return errorResult(`there is no tool "${functionName}" (its server may have disconnected).`);
    let args: unknown;
    try {
      args = argumentsJson.trim() === '' ? {} : JSON.parse(argumentsJson);
    } catch (error) {
      return errorResult(`the arguments are not valid JSON: ${(error as Error).message}`);
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      return errorResult('the arguments must be a JSON object.');
    }
    return this.callTool(entry.server, entry.tool, args as Record<string, unknown>, options);
  }

  listResources(name: string): Promise<Resource[]> {
    return this.connection(name).listResources();
  }

  readResource(name: string, uri: string): Promise<ReadResourceResult['contents']> {
    return this.connection(name).readResource(uri);
  }

  listPrompts(name: string): Promise<Prompt[]> {
    return this.connection(name).listPrompts();
  }

  /** What the server wrote to stderr, and our notes on its life, oldest first. */
  logs(name: string): string[] {
    return this.logEntries(name).map(formatLogEntry);
  }

  logEntries(name: string): LogEntry[] {
    return this.connection(name).log.entriesSnapshot();
  }

  /** Follows a server's log as lines arrive. */
  onLogEntry(name: string, listener: (entry: LogEntry) => void): Dispose {
    return this.connection(name).log.entryAdded.add(listener);
  }

  /** The tools of every connected server, named for the chat; build it per request, it is cheap. */
  toolCatalog(): ToolCatalog {
    const servers = [...this.servers.values()].flatMap(({ connection }) =>
      connection && connection.snapshot().state === 'connected'
        ? [{ server: connection.name, tools: connection.toolList(), autoApprove: connection.config.autoApprove }]
        : [],
    );
    return new ToolCatalog(servers);
  }

  private connection(name: string): ServerConnection {
    const connection = this.servers.get(name)?.connection;
    if (!connection) throw new Error(`There is no MCP server "${name}"${this.invalidSuffix(name)}.`);
    return connection;
  }

  private invalidSuffix(name: string): string {
    const problems = this.servers.get(name)?.problems.filter((problem) => problem.severity === 'error') ?? [];
    return problems.length === 0 ? '' : ` (its settings entry is invalid: ${problems.map(formatProblem).join('; ')})`;
  }

  private async applySettings(): Promise<void> {
    if (!this.started) return;
    const file = await readSettingsFile(this.options.dataDir);
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
    await Promise.all([
      ...removed.map(async (server) => {
        this.servers.delete(server.name);
        await this.retire(server);
      }),
      ...entries.map((entry) => this.applyEntry(entry)),
    ]);
    if (removed.length > 0 || added.length > 0) this.serversChanged.emit(this.list());
  }

  private async applyEntry(entry: ParsedEntry): Promise<void> {
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
        if (String(before.autoApprove) !== String(config.autoApprove)) this.toolsChanged.emit({ server: entry.name });
        return;
      }
    }
    if (current) await this.retire(current);
    const server: ManagedServer = { name: entry.name, problems: entry.problems, disposeListeners: [] };
    this.servers.set(entry.name, server);
    if (config) this.attach(server, config);
    this.serverStatus.emit(snapshotOf(server));
  }

  private attach(server: ManagedServer, config: ServerConfig): void {
    const connection = new ServerConnection(config, this.connectionOptions);
    server.connection = connection;
    server.disposeListeners.push(
      connection.statusChanged.add(() => this.serverStatus.emit(snapshotOf(server))),
      connection.toolsChanged.add(() => this.toolsChanged.emit({ server: server.name })),
    );
    if (!config.disabled) connection.start();
  }

  /** Stops a server that is being removed or replaced; its last status and tools-changed events still go out. */
  private async retire(server: ManagedServer): Promise<void> {
    await server.connection?.stop();
    for (const dispose of server.disposeListeners) dispose();
    server.disposeListeners = [];
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
