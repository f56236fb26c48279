// One MCP server, for as long as it is configured: starts it, performs the handshake within a start-up
// timeout, lists its tools, restarts it with backoff when it dies, and stops it with its whole process tree.
// Everything it owns (the session, the child process, timers) is released by `stop()`.
// How an attempt is set up and closed is server-session.ts; the OAuth sign-in, server-sign-in.ts; which call a
// server's question belongs to, tool-calls-in-flight.ts.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../common/index.js';
import { Emitter } from '../../shared/events/index.js';
import { describeCallError } from './call-errors.js';
import {
  describeExit,
  describeNonProtocolOutput,
  describeStartFailure,
  describeStderr,
} from './describe-start-failure.js';
import { LogBuffer } from './log-buffer.js';
import { SignInRequiredError, type OAuthCredentials } from './oauth/index.js';
import { collectPages } from './paginate.js';
import { restartDelayMs, type RestartPolicy } from './restart-policy.js';
import {
  closeSession,
  isFallbackToSse,
  openTransport,
  prepareServer,
  startDeadline,
  StartupTimeout,
  type Prepared,
  type Session,
} from './server-session.js';
import { ServerRelay } from './server-relay.js';
import { signInToServer, storedOAuthProvider, type ServerSignInContext, type SignInRequest } from './server-sign-in.js';
import type { ServerConfig } from './settings-schema.js';
import type { McpSecrets } from './mcp-secrets.js';
import { ToolCallsInFlight } from './tool-calls-in-flight.js';
import { errorResult, normaliseToolResult, type ToolResult } from './tool-results.js';
import type { ElicitationHandler, SamplingHandler, ServerSnapshot, ServerStatus, ToolCallOptions } from './types.js';

export interface ServerConnectionOptions {
  logger: Logger;
  /** For entries without `startupTimeout`. */
  defaultStartupTimeoutMs: number;
  restartPolicy: RestartPolicy;
  /** Where `${env:VAR}` is looked up. */
  environment: NodeJS.ProcessEnv;
  /** The PATH stdio commands are looked up in. */
  searchPath: () => Promise<string>;
  clientInfo: { name: string; version: string };
  /** Where OAuth sign-ins of remote servers are kept; without it a server's 401 is an error, as before. */
  oauth?: OAuthCredentials;
  /** Answers elicitations during calls that brought no handler of their own; unset: they are declined. */
  elicit?: ElicitationHandler;
  /** Where `${secret:NAME}` values are read; without it an entry that uses one does not start. */
  secrets?: McpSecrets;
  /** Answers sampling requests during calls that brought no handler of their own; unset: they are refused. */
  sample?: SamplingHandler;
}

const stderrLinesInMessages = 10;

export class ServerConnection {
  private readonly statusChangedEmitter = new Emitter<ServerSnapshot>();
  readonly onStatusChanged = this.statusChangedEmitter.event;
  private readonly toolsChangedEmitter = new Emitter<Tool[]>();
  readonly onToolsChanged = this.toolsChangedEmitter.event;
  private readonly listChangedEmitter = new Emitter<'resources' | 'prompts'>();
  /** The server said its resources or prompts changed (`notifications/…/list_changed`). */
  readonly onListChanged = this.listChangedEmitter.event;
  readonly log = new LogBuffer();
  readonly relay = new ServerRelay(
    () => this.readyClient(),
    () => this.requestOptions(),
    () => this.options.logger,
  );

  private settings: ServerConfig;
  private status: ServerStatus;
  private session?: Session;
  private tools: Tool[] = [];
  private running = false;
  /** Bumped by every attempt and by stop(): callbacks of an older attempt see a different number and stand down. */
  private generation = 0;
  private restarts = 0;
  private restartTimer?: NodeJS.Timeout;
  private stableTimer?: NodeJS.Timeout;
  private nonProtocolLine?: string;
  private signedIn = false;
  private readonly callsInFlight: ToolCallsInFlight;

  constructor(
    config: ServerConfig,
    private readonly options: ServerConnectionOptions,
  ) {
    this.settings = config;
    this.status = config.disabled ? { state: 'disabled' } : { state: 'disconnected' };
    this.callsInFlight = new ToolCallsInFlight(() => this.name, this.log, options.elicit, options.sample);
  }

  get name(): string {
    return this.settings.name;
  }

  get config(): ServerConfig {
    return this.settings;
  }

  get pid(): number | undefined {
    return this.session?.process?.pid;
  }

  snapshot(): ServerSnapshot {
    const pid = this.pid;
    return {
      name: this.name,
      transport: this.settings.transport,
      ...this.status,
      toolCount: this.tools.length,
      ...(pid === undefined ? {} : { pid }),
      ...(this.signedIn ? { signedIn: true } : {}),
    };
  }

  toolList(): Tool[] {
    return [...this.tools];
  }

  /** Applies settings that need no restart (timeout, autoApprove); the caller checked that nothing else changed. */
  updateSettings(config: ServerConfig): void {
    this.settings = config;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.restarts = 0;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.generation += 1;
    this.clearTimers();
    const session = this.session;
    this.session = undefined;
    this.setTools([]);
    if (session) await closeSession(session);
    if (session) this.log.add('switchyard', 'Stopped.');
    this.setStatus(this.settings.disabled ? { state: 'disabled' } : { state: 'disconnected', message: 'Stopped.' });
  }

  /**
   * On its first attempt since start(): the process is starting or the handshake runs. A retry after a failure or a
   * crash is not, so that what waits for servers to start (the hub's first lists) is not held by one that keeps
   * failing.
   */
  get starting(): boolean {
    return this.running && this.restarts === 0 && this.status.state === 'connecting';
  }

  /** Resolves once the server is connected, or failed for good, or stopped: what the CLI waits for. */
  whenSettled(): Promise<ServerSnapshot> {
    const settled = () => !this.running || ['connected', 'error', 'needs-sign-in'].includes(this.status.state);
    if (settled()) return Promise.resolve(this.snapshot());
    return new Promise((resolve) => {
      const subscription = this.onStatusChanged((snapshot) => {
        if (!settled()) return;
        subscription.dispose();
        resolve(snapshot);
      });
    });
  }

  async callTool(tool: string, args: Record<string, unknown>, options: ToolCallOptions = {}): Promise<ToolResult> {
    const session = this.session;
    if (!session?.ready) return errorResult(this.notConnectedMessage());
    const timeoutSeconds = this.settings.timeoutSeconds;
    return this.callsInFlight.run(options, async () => {
      try {
        // The timeout is a hard cap on the whole call, progress or not: the chat loop needs a bound it can rely on.
        const result = await this.relay.withProgress(options.onProgress, (meta) =>
          session.client.callTool({ name: tool, arguments: args, ...meta }, undefined, {
            timeout: timeoutSeconds * 1000,
            ...(options.signal ? { signal: options.signal } : {}),
          }),
        );
        return normaliseToolResult(result);
      } catch (error) {
        if (error instanceof SignInRequiredError && this.session === session) void this.requireSignIn(session, error);
        const aborted = options.signal?.aborted ?? false;
        return errorResult(describeCallError(error, { server: this.name, tool, timeoutSeconds, aborted }));
      }
    });
  }

  async listResources(): Promise<Resource[]> {
    const client = this.readyClient();
    const listPage = (params?: { cursor: string }) => client.listResources(params, this.requestOptions());
    return client.getServerCapabilities()?.resources ? collectPages(listPage, (page) => page.resources) : [];
  }

  async readResource(uri: string): Promise<ReadResourceResult['contents']> {
    const result = await this.readyClient().readResource({ uri }, this.requestOptions());
    return result.contents;
  }

  async listPrompts(): Promise<Prompt[]> {
    const client = this.readyClient();
    const listPage = (params?: { cursor: string }) => client.listPrompts(params, this.requestOptions());
    return client.getServerCapabilities()?.prompts ? collectPages(listPage, (page) => page.prompts) : [];
  }

  async getPrompt(name: string, args: Record<string, string> | undefined): Promise<GetPromptResult> {
    return this.readyClient().getPrompt({ name, ...(args ? { arguments: args } : {}) }, this.requestOptions());
  }

  /**
   * Signs in to this remote server in the person's browser and stores the tokens (see oauth/sign-in.ts); the
   * caller restarts the connection to use them.
   */
  async signIn(request: SignInRequest): Promise<void> {
    await signInToServer(this.signInContext(), this.settings, this.options.environment, request, (message) => {
      if (this.status.state === 'needs-sign-in') this.setStatus({ ...this.status, message });
    });
  }

  /** Forgets the stored sign-in; false when there was none. The caller restarts the connection. */
  async signOut(): Promise<boolean> {
    const removed = (await this.options.oauth?.clear(this.name)) ?? false;
    if (removed) this.log.add('switchyard', 'Signed out: the stored tokens were deleted.');
    return removed;
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    const isCurrent = () => this.running && generation === this.generation;
    this.nonProtocolLine = undefined;
    this.setStatus({ state: 'connecting' });
    let prepared: Prepared = { config: this.settings };
    let session: Session | undefined;
    const startupTimeoutMs = (this.settings.startupTimeoutSeconds ?? 0) * 1000 || this.options.defaultStartupTimeoutMs;
    const deadline = startDeadline(startupTimeoutMs);
    try {
      prepared = await Promise.race([this.prepare(), deadline.expired]);
      if (!isCurrent()) return;
      session = this.openSession(prepared, prepared.config.transport);
      try {
        await Promise.race([this.handshake(session, startupTimeoutMs), deadline.expired]);
      } catch (error) {
        if (!isFallbackToSse(prepared.config, error) || !isCurrent()) throw error;
        this.log.add('switchyard', `Streamable HTTP refused (${(error as Error).message}); trying SSE.`);
        await closeSession(session);
        session = this.openSession(prepared, 'sse');
        await Promise.race([this.handshake(session, startupTimeoutMs), deadline.expired]);
      }
    } catch (error) {
      if (session) await closeSession(session, false);
      if (!isCurrent()) return;
      if (this.session === session) this.session = undefined;
      this.failStart(error, prepared, session);
      return;
    } finally {
      deadline.clear();
    }
    if (!isCurrent()) return; // stop() closed the session
    const serverInfo = session.client.getServerVersion();
    const server = [serverInfo?.name ?? 'the server', serverInfo?.version, this.pid && `(pid ${this.pid})`];
    this.log.add('switchyard', `Connected to ${server.filter(Boolean).join(' ')}; ${this.tools.length} tools.`);
    const warning = this.nonProtocolLine ? describeNonProtocolOutput(this.nonProtocolLine) : undefined;
    this.relay.connected(session.client);
    this.setStatus({ state: 'connected', ...(warning ? { warning } : {}) });
    this.stableTimer = setTimeout(() => (this.restarts = 0), this.options.restartPolicy.stableAfterMs);
    this.stableTimer.unref();
  }

  private prepare(): Promise<Prepared> {
    return prepareServer(this.settings, {
      environment: this.options.environment,
      searchPath: this.options.searchPath,
      log: this.log,
      oauthProvider: (config) =>
        storedOAuthProvider(this.signInContext(), config, (signedIn) => (this.signedIn = signedIn)),
      ...(this.options.secrets ? { secrets: this.options.secrets } : {}),
    });
  }

  private signInContext(): ServerSignInContext {
    return { server: this.name, credentials: this.options.oauth, log: this.log, clientInfo: this.options.clientInfo };
  }

  /** Builds the transport and client and wires their events; starts nothing yet. */
  private openSession(prepared: Prepared, transportKind: ServerConfig['transport']): Session {
    const { transport, process } = openTransport(prepared, transportKind, this.settings, {
      log: this.log,
      onNonProtocolLine: (line) => this.noteNonProtocolLine(line),
    });
    const client = this.callsInFlight.newClient(this.options.clientInfo);
    const session: Session = { client, transport, ready: false, closed: false, ...(process ? { process } : {}) };
    this.session = session;
    client.onerror = (error) => this.options.logger.debug({ server: this.name, err: error }, 'MCP client error');
    client.onclose = () => {
      if (session.ready && this.session === session && this.running) void this.handleCrash(session);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.refreshTools(session));
    this.relay.watch(client, () => this.session === session);
    const listChanged = (list: 'resources' | 'prompts') => () => {
      if (this.session === session) this.listChangedEmitter.fire(list);
    };
    client.setNotificationHandler(ResourceListChangedNotificationSchema, listChanged('resources'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, listChanged('prompts'));
    return session;
  }

  private async handshake(session: Session, timeoutMs: number): Promise<void> {
    // Our deadline covers the whole start; this only keeps the SDK's own 60 s default from firing first.
    await session.client.connect(session.transport, { timeout: timeoutMs });
    const tools = await this.fetchTools(session.client);
    if (session.closed) throw new Error('closed during the handshake');
    session.ready = true;
    this.setTools(tools);
  }

  private failStart(error: unknown, prepared: Prepared, session: Session | undefined): void {
    if (error instanceof SignInRequiredError && error.offersOAuth) {
      this.signedIn = false;
      this.log.add('switchyard', error.message);
      this.setStatus({ state: 'needs-sign-in', message: error.message });
      return;
    }
    const failure = describeStartFailure({
      error,
      config: prepared.shown ?? prepared.config,
      ...(error instanceof StartupTimeout ? { timedOutAfterMs: error.afterMs } : {}),
      ...(session?.process?.exit ? { exit: session.process.exit } : {}),
      stderrTail: this.log.stderrTail(stderrLinesInMessages),
      ...(this.nonProtocolLine ? { nonProtocolLine: this.nonProtocolLine } : {}),
      ...(prepared.searchPath === undefined ? {} : { searchPath: prepared.searchPath }),
    });
    this.options.logger.warn({ server: this.name }, failure.message);
    if (failure.retryable) this.scheduleRestart(failure.message);
    else this.setStatus({ state: 'error', message: failure.message });
  }

  /** The server stopped taking the stored sign-in mid-session, and it could not be refreshed. */
  private async requireSignIn(session: Session, error: SignInRequiredError): Promise<void> {
    this.session = undefined; // so that the close below is not taken for a crash
    this.clearTimers();
    this.setTools([]);
    this.signedIn = false;
    this.log.add('switchyard', error.message);
    this.setStatus({ state: 'needs-sign-in', message: error.message });
    await closeSession(session, false);
  }

  private async handleCrash(session: Session): Promise<void> {
    const generation = this.generation;
    this.session = undefined;
    this.clearTimers();
    this.setTools([]);
    const exit = session.process?.exit;
    const reason = exit ? `${describeExit(exit)}.` : 'The connection closed.';
    const message = `${reason}${describeStderr(this.log.stderrTail(stderrLinesInMessages))}`;
    this.options.logger.warn({ server: this.name }, `MCP server stopped unexpectedly: ${reason}`);
    await closeSession(session, false); // whatever the dead leader left behind
    if (this.running && generation === this.generation) this.scheduleRestart(message);
  }

  private scheduleRestart(message: string): void {
    const policy = this.options.restartPolicy;
    if (this.restarts >= policy.maxRestarts) {
      const gaveUp = policy.maxRestarts > 0 ? `Gave up after ${this.restarts} restarts. ` : '';
      this.setStatus({ state: 'error', message: `${gaveUp}${message}` });
      return;
    }
    this.restarts += 1;
    const delayMs = restartDelayMs(policy, this.restarts);
    const note = `Restarting in ${delayMs / 1000} s (restart ${this.restarts} of ${policy.maxRestarts}).`;
    this.log.add('switchyard', note);
    this.setStatus({ state: 'disconnected', message: `${note} ${message}` });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.running) void this.connect();
    }, delayMs);
  }

  private async refreshTools(session: Session): Promise<void> {
    if (!session.ready || this.session !== session) return;
    try {
      const tools = await this.fetchTools(session.client);
      if (this.session === session) this.setTools(tools);
    } catch (error) {
      this.options.logger.warn({ server: this.name, err: error }, 'refreshing the tool list failed');
    }
  }

  private fetchTools(client: Client): Promise<Tool[]> {
    const listPage = (params?: { cursor: string }) => client.listTools(params, this.requestOptions());
    return client.getServerCapabilities()?.tools ? collectPages(listPage, (page) => page.tools) : Promise.resolve([]);
  }

  private noteNonProtocolLine(line: string): void {
    this.log.add('stdout', line);
    if (this.nonProtocolLine !== undefined) return;
    this.nonProtocolLine = line;
    this.options.logger.warn({ server: this.name }, 'MCP server printed non-protocol text on stdout');
    if (this.status.state === 'connected') this.setStatus({ ...this.status, warning: describeNonProtocolOutput(line) });
  }

  private readyClient(): Client {
    const session = this.session;
    if (!session?.ready) throw new Error(this.notConnectedMessage());
    return session.client;
  }

  private notConnectedMessage(): string {
    const why = this.status.message ? `: ${this.status.message}` : '';
    return `server "${this.name}" is not connected (${this.status.state}${why})`;
  }

  private requestOptions() {
    return { timeout: this.settings.timeoutSeconds * 1000 };
  }

  private setStatus(status: ServerStatus): void {
    this.status = status;
    this.statusChangedEmitter.fire(this.snapshot());
  }

  private setTools(tools: Tool[]): void {
    if (tools.length === 0 && this.tools.length === 0) return;
    this.tools = tools;
    this.toolsChangedEmitter.fire(this.toolList());
  }

  private clearTimers(): void {
    clearTimeout(this.restartTimer);
    clearTimeout(this.stableTimer);
    this.restartTimer = undefined;
    this.stableTimer = undefined;
  }
}
