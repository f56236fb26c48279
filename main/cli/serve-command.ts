import { InvalidArgumentError, Option, type Command } from 'commander';
import { maxCacheTtlSeconds, responseCacheScopes, type ResponseCacheScope } from '../../shared/api/index.js';
import { defaultResponseCacheLimits } from '../gateway/index.js';
import {
  appVersion,
  createBridgeHandlers,
  createUiToken,
  defaultRendererDir,
  registerHttpBridge,
  UiSignIn,
  writeUiLink,
  type BridgeHandlers,
} from '../bridge/index.js';
import { defaultPort } from '../common/index.js';
import { openAIBaseUrlOf } from '../gateway/index.js';
import { normalizeOrigin, parseOriginList } from '../gateway/http/security.js';
import type { CommandContext } from './command-context.js';
import { dataDirOption, databaseUrlOption, hubWaitOption, parseIntegerOption } from './shared-options.js';
import { isServeWorker, reportToPrimary, runServePrimary } from './serve-workers.js';
import { collectStartUpGarbage } from './start-up-memory.js';

const shutdownGraceMs = 10_000;

/** Commander collector for a repeatable option; `check` turns a bad value into a usage error. */
function collect(check: (value: string) => string = (value) => value) {
  return (value: string, previous: string[]): string[] => {
    try {
      return [...previous, check(value)];
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** The printed link: the token in the query (it becomes a cookie), on a loopback name even when bound to all. */
function uiUrl(baseUrl: string, token: string): string {
  const url = new URL(`/?token=${token}`, baseUrl);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.href;
}

interface ServeOptions {
  host: string;
  port: number;
  dataDir?: string;
  databaseUrl?: string;
  ui: boolean;
  corsOrigin: string[];
  allowedHost: string[];
  workers: number;
  /** Milliseconds (the option is given in seconds). */
  hubWait?: number;
  stalledCallerTimeout: number;
  /** Unset: the setting stored with the data (the Gateway screen's). */
  cacheTtl?: number;
  cacheScope?: ResponseCacheScope;
  cacheMaxEntries: number;
  cacheMaxMb: number;
  /** False with --no-metrics. */
  metrics: boolean;
  metricsKeyLabels?: boolean;
}

export function registerServeCommand(program: Command, context: CommandContext): void {
  const { output } = context;
  program
    .command('serve')
    .description('run the gateway and the browser UI until interrupted')
    .option('--host <host>', 'address to bind; anything but loopback exposes the gateway to your network', '127.0.0.1')
    .option('--port <port>', `port to listen on (0 picks a free one)`, parseIntegerOption(0, 65535), defaultPort)
    .option('--no-ui', 'serve only the gateway API, without the browser UI and its bridge')
    .option(
      '--cors-origin <origin>',
      'let web pages from this origin call the API (repeatable; also SWITCHYARD_CORS_ORIGINS, comma-separated)',
      collect(normalizeOrigin),
      [],
    )
    .option(
      '--allowed-host <name>',
      'accept this name in the Host header besides localhost (repeatable)',
      collect(),
      [],
    )
    .option(
      '--workers <count>',
      'run this many gateway processes on the port, to use more cores (the API only: no UI, no MCP servers)',
      parseIntegerOption(1, 64),
      1,
    )
    .addOption(hubWaitOption())
    .addOption(
      new Option(
        '--stalled-caller-timeout <seconds>',
        'end a stream whose caller has taken nothing of it for this long, aborting its upstream request (0: never)',
      )
        .env('SWITCHYARD_STALLED_CALLER_TIMEOUT')
        .argParser(parseIntegerOption(0, 86_400))
        .default(60),
    )
    .option(
      '--cache-ttl <seconds>',
      'answer identical chat requests from the response cache for this long (0: off; default: the stored setting, off unless set in the UI)',
      parseIntegerOption(0, maxCacheTtlSeconds),
    )
    .addOption(
      new Option(
        '--cache-scope <scope>',
        'keep cached answers per key, or share them between all keys (default: the stored setting, key unless set in the UI)',
      ).choices(responseCacheScopes),
    )
    .option(
      '--cache-max-entries <count>',
      'most answers kept in the response cache; the least recently used go first',
      parseIntegerOption(1, 100_000_000),
      defaultResponseCacheLimits.maxEntries,
    )
    .option(
      '--cache-max-mb <megabytes>',
      'most megabytes of answers kept in the response cache',
      parseIntegerOption(1, 1_000_000),
      defaultResponseCacheLimits.maxBytes / (1024 * 1024),
    )
    .option('--no-metrics', 'no Prometheus metrics: GET /metrics answers 404')
    .option('--metrics-key-labels', 'add the key id to the request counts in /metrics (one series per key)')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options: ServeOptions) => {
      if (options.workers > 1 && !isServeWorker())
        return runServePrimary(options.workers, output, { metrics: options.metrics });
      // A worker of `--workers`: the API only, quiet; the primary prints and decides when to stop.
      const worker = isServeWorker();
      const app = await context.openApp(options, { instance: true, hubStartupWaitMs: options.hubWait });
      let bridge: BridgeHandlers | undefined;
      let removeUiLink = () => {};
      try {
        await app.secrets(); // at start, so a keychain fallback warning shows now and not on the first request
        if (!isLoopback(options.host) && !worker) {
          output.err(
            `warning: listening on ${options.host} makes the gateway reachable from other machines; every request still needs an API key.`,
          );
        }
        const corsOrigins = [...options.corsOrigin, ...parseOriginList(process.env.SWITCHYARD_CORS_ORIGINS)];
        if (corsOrigins.length > 0 && !worker)
          output.err(`CORS: web pages from ${corsOrigins.join(', ')} may call the API.`);
        const gateway = app.createGateway({
          security: { corsOrigins, allowedHosts: options.allowedHost },
          stalledCallerMs: options.stalledCallerTimeout * 1000,
          mcpHub: !worker,
          responseCache: {
            ttlSeconds: options.cacheTtl,
            scope: options.cacheScope,
            maxEntries: options.cacheMaxEntries,
            maxBytes: options.cacheMaxMb * 1024 * 1024,
          },
          ...(options.metrics ? { metrics: { keyLabels: options.metricsKeyLabels ?? false } } : {}),
        });
        // The UI's routes must be on the server before it listens; its token is new at every start.
        let gatewayUrl: string | null = null;
        const uiToken = createUiToken();
        if (options.ui && !worker) {
          bridge = createBridgeHandlers(app, { appInfo: () => ({ version: appVersion(), gatewayUrl }) });
          await registerHttpBridge(gateway.server, bridge, {
            token: uiToken,
            extraHostnames: [options.host, ...options.allowedHost],
            rendererDir: defaultRendererDir(),
            logger: app.logger,
            // A team server's UI may sit behind a load balancer: it also signs in with a management key.
            ...(app.store.uiSessions
              ? { signIn: new UiSignIn({ keys: app.keys, sessions: app.store.uiSessions }) }
              : {}),
          });
        }
        // Listening for signals before listening on the port: a SIGTERM that comes as soon as the first request is
        // served must drain it, not kill the process with Node's default action.
        const stopped = new Promise<void>((resolve) => {
          let stopping = false;
          const stop = (signal: NodeJS.Signals) => {
            if (stopping && worker) return; // Ctrl+C reaches workers and the primary alike: drain once
            if (stopping) {
              output.err(`${signal} again: exiting without waiting.`);
              process.exit(1);
            }
            stopping = true;
            if (!worker) output.err(`${signal}: finishing in-flight requests (up to ${shutdownGraceMs / 1000} s)…`);
            // Chat turns are requests to this gateway: stop them first rather than wait out the grace period.
            void app.chat
              .close()
              .then(() => gateway.close(shutdownGraceMs))
              .then(resolve, resolve);
          };
          process.on('SIGINT', stop);
          process.on('SIGTERM', stop);
          if (worker) process.once('disconnect', () => stop('SIGTERM')); // the primary is gone
        });
        collectStartUpGarbage();
        const baseUrl = await gateway.listen({ host: options.host, port: options.port }).catch((error: unknown) => {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EADDRINUSE') throw new Error(`Port ${options.port} is in use: choose another with --port.`);
          if (code === 'EADDRNOTAVAIL') throw new Error(`Cannot bind to ${options.host}: no such local address.`);
          throw error;
        });
        gatewayUrl = baseUrl;
        if (worker) reportToPrimary({ type: 'listening', baseUrl });
        else {
          output.out(`Switchyard gateway listening at ${baseUrl}`);
          output.out(
            `OpenAI-compatible base URL (for OpenAI and OpenRouter SDKs and tools): ${openAIBaseUrlOf(baseUrl)}`,
          );
        }
        if (bridge) {
          const link = uiUrl(baseUrl, uiToken);
          // For `switchyard ui`, which gives a new tab the link of this running server.
          removeUiLink = writeUiLink(app.dataDir, link);
          output.out(`Switchyard UI: ${link}`);
        }
        if (!worker) await app.mcp.start(); // launches the MCP servers without waiting for their handshakes
        if (!worker) output.err(`Data: ${app.dataDir}. Press Ctrl+C to stop.`);
        await stopped;
      } finally {
        removeUiLink();
        bridge?.dispose();
        await app.close();
      }
      if (worker)
        process.disconnect?.(); // the channel to the primary would keep this process alive
      else output.err('Stopped.');
    });
}
