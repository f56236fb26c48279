// All of the user's MCP servers: reads `<data-dir>/mcp_settings.json`, runs every enabled server, applies
// edits to the file as they happen (only what changed), and offers their tools to the chat as one catalog.
// It is the file's only writer in the app: the UI's form and raw editor, the chat's "always allow" and imports
// all edit through its methods, which write atomically and apply the change before they resolve, so no caller
// has to remember to reload. Edits by hand (or by another process) are applied by the watcher.
// `stop()` stops every server and the watcher; nothing it started outlives it.

import { mkdir } from 'node:fs/promises';
import type { GetPromptResult, Prompt, ReadResourceResult, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../common/index.js';
import { Emitter, type Disposable } from '../../shared/events/index.js';
import { compareConfigs } from './config-diff.js';
import {
  importConfigFile,
  previewImportFile,
  type ImportOptions,
  type ImportPreview,
  type ImportReport,
} from './import-config.js';
import { ElicitationPrompts } from './elicitation-prompts.js';
import { formatLogEntry, type LogEntry } from './log-buffer.js';
import { serverSearchPath } from './login-shell-path.js';
import { defaultRestartPolicy, type RestartPolicy } from './restart-policy.js';
import type { OAuthCredentials } from './oauth/index.js';
import type { ServerConnection, ServerConnectionOptions } from './server-connection.js';
import type { SignInRequest } from './server-sign-in.js';
import {
  importSettingsText,
  readEditableSettings,
  removeServerEntry,
  saveServerEntry,
  saveSettingsText,
  setServerDisabled,
  setToolAutoApprove,
  setToolDisabled,
  type EditableSettings,
  type SettingsWrite,
} from './settings-editor.js';
import { readSettingsFile, settingsFilePath, type SettingsFile } from './settings-file.js';
import { defaultStartupTimeoutSeconds, formatProblem, type ParsedEntry, type ServerConfig } from './settings-schema.js';
import { watchSettingsFile } from './settings-watcher.js';
import { ToolCatalog } from './tool-catalog.js';
import { errorResult, type ToolResult } from './tool-results.js';
import type { ServerSnapshot, SettingsProblem, ToolCallOptions } from './types.js';

/**
 * The connection code, and the MCP SDK with it, is loaded when the settings first name a server: a gateway with no
 * MCP servers never loads the SDK (several MB of resident memory, for as long as the process runs).
 */
let connectionClass: Promise<typeof ServerConnection> | undefined;
const loadConnectionClass = () =>
  (connectionClass ??= import('./server-connection.js').then((loaded) => loaded.ServerConnection));

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
  /** Where remote servers' OAuth sign-ins are kept (the secret store); without it they cannot sign in. */
  oauth?: OAuthCredentials;
}

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

export interface SettingsChangedEvent {
  /** `edit`: through one of this manager's methods; `file`: changed on disk (by hand, or by another process). */
  origin: 'edit' | 'file';
}

export class McpManager {
  private readonly servers = new Map<string, ManagedServer>();
  private readonly serverStatusEmitter = new Emitter<ServerSnapshot>();
  private readonly toolsChangedEmitter = new Emitter<ToolsChangedEvent>();
  private readonly listChangedEmitter = new Emitter<ListChangedEvent>();
  private readonly serversChangedEmitter = new Emitter<ServerSnapshot[]>();
  private readonly settingsChangedEmitter = new Emitter<SettingsChangedEvent>();
  private readonly connectionOptions: ServerConnectionOptions;
  private fileProblems: SettingsProblem[] = [];
  private appliedText: string | undefined;
  /** The file's text when it was last read while running, valid or not: a change of it is a settings change. */
  private seenText: string | undefined;
  private watcher?: Disposable;
  private started = false;
  /** The settings read and the servers launched, by start(). */
  private startup: Promise<void> = Promise.resolve();
  /**
   * Questions servers ask during tool calls that brought no answerer of their own (the chat's, the MCP screen's):
   * the UI subscribes and answers; without a subscriber they are declined.
   */
  readonly elicitations = new ElicitationPrompts();
  /** Sign-ins waiting for the browser, by server. */
  private readonly signIns = new Map<string, AbortController>();
  /** Edits and reloads run one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();

  /** A server's status changed. */
  readonly onServerStatus = this.serverStatusEmitter.event;
  /** Servers were added to or removed from the settings; the listener gets the new list. */
  readonly onServersChanged = this.serversChangedEmitter.event;
  /** A server's tools changed (connected, crashed, `tools/list_changed`, its autoApprove or disabledTools edited). */
  readonly onToolsChanged = this.toolsChangedEmitter.event;
  /** A connected server said its resources or prompts changed. */
  readonly onListChanged = this.listChangedEmitter.event;
  /**
   * The settings file changed while the manager runs, and the change has been applied: once per change, whether
   * it came through this manager's methods or from outside. Not fired for the first read at start.
   */
  readonly onSettingsChanged = this.settingsChangedEmitter.event;

  constructor(private readonly options: McpManagerOptions) {
    this.connectionOptions = {
      logger: options.logger,
      defaultStartupTimeoutMs: options.startupTimeoutMs ?? defaultStartupTimeoutSeconds * 1000,
      restartPolicy: { ...defaultRestartPolicy, ...options.restartPolicy },
      environment: options.environment ?? process.env,
      searchPath: options.searchPath ?? serverSearchPath,
      clientInfo: options.clientInfo ?? { name: 'Switchyard', version: '0.1.0' },
      ...(options.oauth ? { oauth: options.oauth } : {}),
      elicit: (request, signal) => this.elicitations.ask(request, signal),
    };
  }

  get settingsPath(): string {
    return settingsFilePath(this.options.dataDir);
  }

  /** Reads the settings and starts every enabled server; does not wait for them to connect. */
  start(): Promise<void> {
    if (!this.started) {
      this.started = true;
      this.startup = this.launch();
    }
    return this.startup;
  }

  private async launch(): Promise<void> {
    if (this.options.watch ?? true) {
      // The folder must exist to be watched; the first reload creates the file in it.
      await mkdir(this.options.dataDir, { recursive: true });
      try {
        this.watcher = watchSettingsFile(this.options.dataDir, () => void this.reload(), {
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
    this.watcher?.dispose();
    this.watcher = undefined;
    for (const signIn of this.signIns.values()) signIn.abort();
    await this.queue;
    const servers = [...this.servers.values()];
    this.servers.clear();
    this.appliedText = undefined;
    this.seenText = undefined;
    await Promise.all(servers.map((server) => this.retire(server)));
  }

  /**
   * Re-reads the file and applies what changed. The watcher calls it; edits through this manager's methods apply
   * themselves, so only an edit made behind its back (with the watcher off) needs it.
   */
  reload(): Promise<void> {
    this.queue = this.queue.then(
      () => this.applySettings('file'),
      () => this.applySettings('file'),
    );
    return this.queue;
  }

  /** The file as text and as entries, for the raw editor and the form. */
  readSettings(): Promise<EditableSettings> {
    return readEditableSettings(this.options.dataDir);
  }

  /** Replaces the whole file with `text` (see settings-editor.ts); 409 when it changed since `expectedText`. */
  saveSettingsText(text: string, expectedText?: string): Promise<SettingsWrite> {
    return this.edit(() => saveSettingsText(this.options.dataDir, text, expectedText));
  }

  /** Adds a server, or replaces one (`previousName` renames it in place); an invalid entry is not written. */
  saveServer(name: string, entry: Record<string, unknown>, previousName?: string): Promise<SettingsWrite> {
    return this.edit(() => saveServerEntry(this.options.dataDir, name, entry, previousName));
  }

  /** False when there was no such server. */
  removeServer(name: string): Promise<boolean> {
    return this.edit(() => removeServerEntry(this.options.dataDir, name));
  }

  setServerDisabled(name: string, disabled: boolean): Promise<void> {
    return this.edit(() => setServerDisabled(this.options.dataDir, name, disabled));
  }

  /**
   * Adds `tool` to or removes it from the server's autoApprove list and returns the new list. Whatever in the
   * list is not a tool name (a number typed by hand) is dropped, so the entry stays valid. 404 for an unknown server.
   */
  setToolAutoApprove(name: string, tool: string, autoApprove: boolean): Promise<string[]> {
    return this.edit(() => setToolAutoApprove(this.options.dataDir, name, tool, autoApprove));
  }

  /**
   * Switches a tool off (`disabledTools`) or on again and returns the server's list of tools switched off: the
   * chat's model and the hub's clients stop seeing it at once, nothing restarts. 404 for an unknown server.
   */
  setToolDisabled(name: string, tool: string, disabled: boolean): Promise<string[]> {
    return this.edit(() => setToolDisabled(this.options.dataDir, name, tool, disabled));
  }

  /** Copies the servers of a Claude Desktop, Cursor or Cline config, given as its text (the UI read the file). */
  importSettingsText(text: string, options: ImportOptions & { source?: string } = {}): Promise<ImportReport> {
    return this.edit(() => importSettingsText(this.options.dataDir, text, options));
  }

  /** What importConfigFile would add, replace and skip, and what each added server runs; writes nothing. */
  previewImportFile(filePath: string, options: ImportOptions = {}): Promise<ImportPreview> {
    return previewImportFile(this.options.dataDir, filePath, options);
  }

  /** Copies the servers of a Claude Desktop, Cursor or Cline config file (`switchyard mcp import FILE`). */
  importConfigFile(filePath: string, options: ImportOptions = {}): Promise<ImportReport> {
    return this.edit(() => importConfigFile(this.options.dataDir, filePath, options));
  }

  /**
   * Resolves when no server is on its first attempt to start — each has connected, failed (a retry may be
   * scheduled), needs a sign-in or was stopped — or after `limitMs`, whichever comes first. It wakes at the status
   * change that settles the last server, without polling, and a server that fails at once settles then. The servers
   * of a start() still reading the settings count as starting.
   */
  whenStarted(limitMs: number): Promise<void> {
    const anyStarting = () => [...this.servers.values()].some((server) => server.connection?.starting);
    return new Promise((resolve) => {
      let done = false;
      let subscription: Disposable | undefined;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(limit);
        subscription?.dispose();
        resolve();
      };
      const limit = setTimeout(finish, limitMs);
      const launched = Promise.all([this.startup, this.queue]);
      void launched.then(() => {
        if (done || !anyStarting()) return finish();
        subscription = this.onServerStatus(() => {
          if (!anyStarting()) finish();
        });
      }, finish);
    });
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

  /**
   * Signs in to a remote server that wants OAuth (the browser flow; see oauth/sign-in.ts), then starts it again
   * with the new tokens. A second sign-in to the same server cancels the first. Rejects with a message for people.
   */
  async signIn(name: string, request: SignInRequest): Promise<ServerSnapshot> {
    const connection = this.connection(name);
    this.signIns.get(name)?.abort();
    const cancel = new AbortController();
    this.signIns.set(name, cancel);
    request.signal?.addEventListener('abort', () => cancel.abort(), { once: true });
    try {
      await connection.signIn({ ...request, signal: cancel.signal });
    } finally {
      if (this.signIns.get(name) === cancel) this.signIns.delete(name);
    }
    if (!connection.config.disabled) await this.restart(name);
    await connection.whenSettled();
    return this.server(name) ?? connection.snapshot();
  }

  /** Deletes a server's stored sign-in and starts it again without; false when none was stored. */
  async signOut(name: string): Promise<boolean> {
    const connection = this.connection(name);
    const removed = await connection.signOut();
    if (removed && !connection.config.disabled) await this.restart(name);
    return removed;
  }

  /** File-level problems (malformed JSON) and every entry's problems. */
  problems(): SettingsProblem[] {
    return [...this.fileProblems, ...[...this.servers.values()].flatMap((server) => server.problems)];
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

  getPrompt(name: string, prompt: string, args?: Record<string, string>): Promise<GetPromptResult> {
    return this.connection(name).getPrompt(prompt, args);
  }

  /** What the server wrote to stderr, and our notes on its life, oldest first. */
  logs(name: string): string[] {
    return this.logEntries(name).map(formatLogEntry);
  }

  logEntries(name: string): LogEntry[] {
    return this.connection(name).log.entriesSnapshot();
  }

  /** Follows a server's log as lines arrive. */
  onLogEntry(name: string, listener: (entry: LogEntry) => void): Disposable {
    return this.connection(name).log.onEntryAdded(listener);
  }

  /**
   * The tools of every connected server but those switched off (`disabledTools`), named for the chat and the hub;
   * build it per request, it is cheap.
   */
  toolCatalog(): ToolCatalog {
    const servers = [...this.servers.values()].flatMap(({ connection }) => {
      if (!connection || connection.snapshot().state !== 'connected') return [];
      const { autoApprove, disabledTools } = connection.config;
      const tools = connection.toolList().filter((tool) => !disabledTools.includes(tool.name));
      return [{ server: connection.name, tools, autoApprove }];
    });
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

  /**
   * Writes through `write` and applies the result before resolving. Queued with the reloads, so that a watcher
   * event in between cannot apply a half-made state; an edit that throws (404, 409) leaves the queue going.
   */
  private edit<T>(write: () => Promise<T>): Promise<T> {
    const run = async () => {
      const result = await write();
      await this.applySettings('edit');
      return result;
    };
    const edited = this.queue.then(run, run);
    this.queue = edited.then(
      () => undefined,
      () => undefined,
    );
    return edited;
  }

  private async applySettings(origin: SettingsChangedEvent['origin']): Promise<void> {
    if (!this.started) return;
    const file = await readSettingsFile(this.options.dataDir);
    const changed = this.seenText !== undefined && file.text !== this.seenText;
    this.seenText = file.text;
    try {
      await this.applyFile(file);
    } finally {
      if (changed) this.settingsChangedEmitter.fire({ origin });
    }
  }

  private async applyFile(file: SettingsFile): Promise<void> {
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
    if (config && Connection) this.attach(server, new Connection(config, this.connectionOptions));
    this.serverStatusEmitter.fire(snapshotOf(server));
  }

  private attach(server: ManagedServer, connection: ServerConnection): void {
    server.connection = connection;
    server.subscriptions.push(
      connection.onStatusChanged(() => this.serverStatusEmitter.fire(snapshotOf(server))),
      connection.onToolsChanged(() => this.toolsChangedEmitter.fire({ server: server.name })),
      connection.onListChanged((list) => this.listChangedEmitter.fire({ server: server.name, list })),
    );
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
