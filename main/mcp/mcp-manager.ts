// All of the user's MCP servers: reads `<data-dir>/mcp_settings.json`, runs every enabled server, applies
// edits to the file as they happen (only what changed), and offers their tools to the chat as one catalog.
// It is the file's only writer in the app: the UI's form and raw editor, the chat's "always allow" and imports
// all edit through its methods, which write atomically and apply the change before they resolve, so no caller
// has to remember to reload. Edits by hand (or by another process) are applied by the watcher.
// `stop()` stops every server and the watcher; nothing it started outlives it.
// Bringing the running servers in step with the file is managed-servers.ts; this decides when, and answers for them.

import { mkdir } from 'node:fs/promises';
import type { GetPromptResult, Prompt, ReadResourceResult, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Emitter, type Disposable, type Event } from '../../shared/events/index.js';
import {
  importConfigFile,
  previewImportFile,
  type ImportOptions,
  type ImportPreview,
  type ImportReport,
} from './import-config.js';
import { removeBundleFiles } from './bundles/index.js';
import { ElicitationPrompts } from './elicitation-prompts.js';
import { formatLogEntry, type LogEntry } from './log-buffer.js';
import { ManagedServers, type ListChangedEvent, type ServerRelays, type ToolsChangedEvent } from './managed-servers.js';
import { connectionOptionsOf, type McpManagerOptions } from './manager-options.js';
import type { McpSecrets } from './mcp-secrets.js';
import { createSamplingAnswerer, SamplingApprovals } from './sampling.js';
import type { SignInRequest } from './server-sign-in.js';
import { removeServerWithSecrets, saveServerWithSecrets, secretHints, type SecretValues } from './secret-settings.js';
import {
  importSettingsText,
  readEditableSettings,
  saveSettingsText,
  setServerDisabled,
  setServerOAuthClientId,
  setToolAutoApprove,
  setToolDisabled,
  type SettingsWrite,
} from './settings-editor.js';
import { readSettingsFile, settingsFilePath } from './settings-file.js';
import type { ServerConfig } from './settings-schema.js';
import { watchSettingsFile } from './settings-watcher.js';
import { ToolCatalog } from './tool-catalog.js';
import { errorResult, type ToolResult } from './tool-results.js';
import type { ServerSnapshot, SettingsProblem, ToolCallOptions } from './types.js';

export type { McpManagerOptions } from './manager-options.js';
export type { ListChangedEvent, ToolsChangedEvent } from './managed-servers.js';
export type { LogMessageEvent, ResourceUpdatedEvent, ServerRelays } from './managed-servers.js';

export interface SettingsChangedEvent {
  /** `edit`: through one of this manager's methods; `file`: changed on disk (by hand, or by another process). */
  origin: 'edit' | 'file';
}

export class McpManager {
  private readonly servers: ManagedServers;
  /** The values behind `${secret:NAME}`, for installers to store in; undefined without a secret store. */
  readonly secrets: McpSecrets | undefined;
  private readonly settingsChangedEmitter = new Emitter<SettingsChangedEvent>();
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
  /** Sampling requests of servers whose approval is `ask`, for the UI to approve or decline (sampling.ts). */
  readonly samplingApprovals = new SamplingApprovals();
  /** Sign-ins waiting for the browser, by server. */
  private readonly signIns = new Map<string, AbortController>();
  /** Edits and reloads run one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();

  /** A server's status changed. */
  readonly onServerStatus: Event<ServerSnapshot>;
  /** Servers were added to or removed from the settings; the listener gets the new list. */
  readonly onServersChanged: Event<ServerSnapshot[]>;
  /** A server's tools changed (connected, crashed, `tools/list_changed`, its autoApprove or disabledTools edited). */
  readonly onToolsChanged: Event<ToolsChangedEvent>;
  /** A connected server said its resources or prompts changed. */
  readonly onListChanged: Event<ListChangedEvent>;
  /** What the hub passes on beyond tools, resources and prompts: log messages, templates, subscriptions… */
  readonly relays: ServerRelays;
  /**
   * The settings file changed while the manager runs, and the change has been applied: once per change, whether
   * it came through this manager's methods or from outside. Not fired for the first read at start.
   */
  readonly onSettingsChanged = this.settingsChangedEmitter.event;

  constructor(private readonly options: McpManagerOptions) {
    this.secrets = options.secrets;
    this.servers = new ManagedServers({
      logger: options.logger,
      ...(options.only ? { only: options.only } : {}),
      connectionOptions: connectionOptionsOf(options, {
        elicit: (request, signal) => this.elicitations.ask(request, signal),
        sample: createSamplingAnswerer({
          settingsOf: (server) => this.serverConfig(server)?.sampling,
          approvals: this.samplingApprovals,
          models: options.sampling,
        }),
      }),
    });
    this.onServerStatus = this.servers.onServerStatus;
    this.onServersChanged = this.servers.onServersChanged;
    this.onToolsChanged = this.servers.onToolsChanged;
    this.onListChanged = this.servers.onListChanged;
    this.relays = this.servers;
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
    this.seenText = undefined;
    await this.servers.stopAll();
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

  /** The file as text and as entries, for the raw editor and the form: its secrets masked (`••••abcd`), and whether
   * a client secret is set, not it. */
  async readSettings() {
    return {
      ...(await readEditableSettings(this.options.dataDir, this.options.oauth)),
      secrets: await this.listSecrets(),
    };
  }

  /** Every secret the settings reference, with the servers using it and its value masked (null: not stored). */
  listSecrets() {
    return secretHints(this.options.dataDir, this.options.secrets);
  }

  /** Replaces the whole file with `text` (see settings-editor.ts); 409 when it changed since `expectedText`. */
  saveSettingsText(text: string, expectedText?: string): Promise<SettingsWrite> {
    return this.edit(() => saveSettingsText(this.options.dataDir, text, expectedText));
  }

  /**
   * Adds a server, or replaces one (`previousName` renames it in place); an invalid entry is not written. Values
   * marked secret (`secretValues`) go to the secret store, the file gets their references.
   */
  saveServer(name: string, entry: Record<string, unknown>, previousName?: string, secretValues: SecretValues = {}) {
    const server = { name, entry, ...(previousName === undefined ? {} : { previous: previousName }) };
    return this.edit(() => saveServerWithSecrets(this.options.dataDir, this.options.secrets, server, secretValues));
  }

  /** False when there was no such server. The secrets only it referenced are deleted with it. */
  async removeServer(name: string): Promise<boolean> {
    const entry = (await readSettingsFile(this.options.dataDir)).raw?.mcpServers?.[name];
    const removed = await this.edit(() => removeServerWithSecrets(this.options.dataDir, this.options.secrets, name));
    // An entry installed from a bundle takes its unpacked files with it, once its server has stopped.
    if (removed) await removeBundleFiles(this.options.dataDir, entry);
    return removed;
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
    return this.edit(() => importSettingsText(this.options.dataDir, text, options, this.options.secrets));
  }

  /** What importConfigFile would add, replace and skip, and what each added server runs; writes nothing. */
  previewImportFile(filePath: string, options: ImportOptions = {}): Promise<ImportPreview> {
    return previewImportFile(this.options.dataDir, filePath, options);
  }

  /** Copies the servers of a Claude Desktop, Cursor or Cline config file (`switchyard mcp import FILE`). */
  importConfigFile(filePath: string, options: ImportOptions = {}): Promise<ImportReport> {
    return this.edit(() => importConfigFile(this.options.dataDir, filePath, options, this.options.secrets));
  }

  /**
   * Resolves when no server is on its first attempt to start — each has connected, failed (a retry may be
   * scheduled), needs a sign-in or was stopped — or after `limitMs`, whichever comes first. It wakes at the status
   * change that settles the last server, without polling, and a server that fails at once settles then. The servers
   * of a start() still reading the settings count as starting.
   */
  whenStarted(limitMs: number): Promise<void> {
    const anyStarting = () => this.servers.connections().some((connection) => connection.starting);
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
    await Promise.all(this.servers.connections().map((connection) => connection.whenSettled()));
    return this.list();
  }

  list(): ServerSnapshot[] {
    return this.servers.list();
  }

  server(name: string): ServerSnapshot | undefined {
    return this.servers.server(name);
  }

  /** The settings a server runs with (after validation); undefined for an unknown or invalid entry. */
  serverConfig(name: string): ServerConfig | undefined {
    return this.servers.find(name)?.config;
  }

  /**
   * Stops a server and starts it again, its restart count from zero: the UI's restart button. Throws for an
   * unknown, invalid or disabled server.
   */
  async restart(name: string): Promise<ServerSnapshot> {
    const connection = this.servers.connection(name);
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
    const connection = this.servers.connection(name);
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
    const connection = this.servers.connection(name);
    const removed = await connection.signOut();
    if (removed && !connection.config.disabled) await this.restart(name);
    return removed;
  }

  /** A client registered by hand for a server's OAuth: the id into its entry, the secret (or none) to the keychain. */
  async setOAuthClient(name: string, clientId: string | undefined, clientSecret: string | undefined): Promise<void> {
    await this.setOAuthClientSecret(name, clientSecret);
    await this.edit(() => setServerOAuthClientId(this.options.dataDir, name, clientId));
  }

  /** The secret of that client, to the secret store; undefined deletes it. */
  async setOAuthClientSecret(name: string, clientSecret: string | undefined): Promise<void> {
    if (!this.options.oauth) throw new Error('Sign-ins cannot be stored here (no secret store).');
    await this.options.oauth.writeClientSecret(name, clientSecret);
  }

  /** File-level problems (malformed JSON) and every entry's problems. */
  problems(): SettingsProblem[] {
    return this.servers.problems();
  }

  listTools(name: string): Tool[] {
    return this.servers.connection(name).toolList();
  }

  /** Never throws: every failure, including an unknown server, comes back as an `Error:` result. */
  async callTool(
    name: string,
    tool: string,
    args: Record<string, unknown> = {},
    options: ToolCallOptions = {},
  ): Promise<ToolResult> {
    const connection = this.servers.find(name);
    if (!connection) return errorResult(`there is no MCP server "${name}"${this.servers.invalidSuffix(name)}.`);
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
    return this.servers.connection(name).listResources();
  }

  readResource(name: string, uri: string): Promise<ReadResourceResult['contents']> {
    return this.servers.connection(name).readResource(uri);
  }

  listPrompts(name: string): Promise<Prompt[]> {
    return this.servers.connection(name).listPrompts();
  }

  getPrompt(name: string, prompt: string, args?: Record<string, string>): Promise<GetPromptResult> {
    return this.servers.connection(name).getPrompt(prompt, args);
  }

  /** What the server wrote to stderr, and our notes on its life, oldest first. */
  logs(name: string): string[] {
    return this.logEntries(name).map(formatLogEntry);
  }

  logEntries(name: string): LogEntry[] {
    return this.servers.connection(name).log.entriesSnapshot();
  }

  /** Follows a server's log as lines arrive. */
  onLogEntry(name: string, listener: (entry: LogEntry) => void): Disposable {
    return this.servers.connection(name).log.onEntryAdded(listener);
  }

  /**
   * The tools of every connected server but those switched off (`disabledTools`), named for the chat and the hub;
   * build it per request, it is cheap.
   */
  toolCatalog(): ToolCatalog {
    const servers = this.servers.connections().flatMap((connection) => {
      if (connection.snapshot().state !== 'connected') return [];
      const { autoApprove, disabledTools } = connection.config;
      const tools = connection.toolList().filter((tool) => !disabledTools.includes(tool.name));
      return [{ server: connection.name, tools, autoApprove }];
    });
    return new ToolCatalog(servers);
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
      await this.servers.apply(file);
    } finally {
      if (changed) this.settingsChangedEmitter.fire({ origin });
    }
  }
}
