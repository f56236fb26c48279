// The composition root: builds every service once, for `switchyard serve`, the other CLI commands and the
// Electron shell alike. Each resource has one owner here and `close()` disposes all of them.

import { Accounts, ApiKeys, UsageLog } from '../accounts/index.js';
import {
  ChatCompare,
  ChatKey,
  ChatService,
  createGatewaySampling,
  createHttpChatGateway,
  createMcpChatTools,
  toModelOptions,
} from '../chat/index.js';
import { createLogger, type Logger } from '../common/index.js';
import {
  createGateway,
  GatewayMetrics,
  scrapeOf,
  type Gateway,
  type GatewayMetricsOptions,
  type GatewayOptions,
  type GenerationWatcher,
} from '../gateway/index.js';
import { McpHttpHub, McpManager, McpSecrets, OAuthCredentials, type HubToolCall } from '../mcp/index.js';
import {
  createAnthropicAdapter,
  createGoogleAdapter,
  createOpenAIAdapter,
  EnvironmentProviders,
  LocalProviders,
  ProviderRegistry,
  type LocalProvidersOptions,
  type ProviderSource,
} from '../providers/index.js';
import { ModelAliases } from '../providers/model-aliases.js';
import { PriceBook } from '../providers/pricing/index.js';
import { ProviderSettings, secretAccountFor } from '../providers/provider-settings.js';
import { cooldownSettingsOf, TargetHealth } from '../providers/target-health.js';
import { openSecretStore, type SecretStore } from '../secrets/index.js';
import { openStore, type Store } from '../store/index.js';
import { startTracing, traceSettingsFrom } from '../tracing/index.js';
import { ResponseCacheSetting, type ResponseCacheFlags } from './response-cache-setting.js';

export interface AppOptions {
  dataDir: string;
  logger?: Logger;
  /** `keychain`, `file` or unset for auto-detection (defaults to SWITCHYARD_SECRET_STORE). */
  secretStoreMode?: string;
  /** Called once with the fallback warning when provider secrets cannot go to the OS keychain. */
  onSecretStoreWarning?: (warning: string) => void;
  /** Where OPENAI_API_KEY, OLLAMA_HOST… are read (env-providers.ts, local-providers.ts). Default process.env. */
  env?: Record<string, string | undefined>;
  /** Options of the local-server probes (Ollama, LM Studio); false: never look for local servers. */
  localProviders?: LocalProvidersOptions | false;
  /**
   * How long a client's first list at /mcp waits for MCP servers still starting (default 10 s; see
   * main/mcp/hub/hub-server.ts).
   */
  hubStartupWaitMs?: number;
  /** Model calls per chat turn before the tool loop stops (default 10). */
  chatMaxSteps?: number;
  /** An opened store (a team server's PostgreSQL, openApp); default: SQLite in the data folder. */
  store?: Store;
  /**
   * Where provider keys and the chat's key live when not in the OS keychain (a team server's database, sealed);
   * MCP sign-ins stay with the machine's own secret store, as the MCP servers do.
   */
  providerSecrets?: SecretStore;
}

export interface App {
  readonly dataDir: string;
  readonly logger: Logger;
  readonly store: Store;
  readonly keys: ApiKeys;
  readonly usage: UsageLog;
  /** Credits, key rules, rate limits, prices and usage queries (decision 004). */
  readonly accounts: Accounts;
  readonly providers: ProviderSettings;
  readonly registry: ProviderRegistry;
  /** Names callers may send as `model` instead of `<provider>/<model>`; the registry applies them. */
  readonly aliases: ModelAliases;
  /** Each target's cooldown (decision 030), shared through the store; `states()` lists the ones not healthy. */
  readonly targetHealth: TargetHealth;
  /** The response cache's setting (decision 031): stored with the data, overridden by `serve`'s flags. */
  readonly responseCache: ResponseCacheSetting;
  /** The user's MCP tool servers; idle until `mcp.start()` (serve and the desktop app call it). */
  readonly mcp: McpManager;
  /** The MCP servers offered to other MCP clients at the gateway's /mcp. */
  readonly mcpHub: McpHttpHub;
  /** Records a tool call made through the hub (over HTTP or stdio) for the Activity screen. */
  recordHubCall(call: HubToolCall): void;
  /** Conversations and the tool loop; it calls the first gateway this app started listening. */
  readonly chat: ChatService;
  /** One prompt to several models side by side, through the chat's gateway client and key. */
  readonly chatCompare: ChatCompare;
  /**
   * Where provider keys are kept: the OS keychain (or its file fallback), or a team server's database. Opened on
   * first use: probing the keychain costs a D-Bus round trip that most CLI commands don't need.
   */
  secrets(): Promise<SecretStore>;
  /**
   * `mcpHub: false` leaves out /mcp (a gateway worker: the MCP servers and the hub's sessions need one process).
   * `metrics` serves GET /metrics, counting this gateway's generations and the hub's tool calls.
   * `responseCache`: `serve`'s cache flags, each given one winning over the stored setting (decision 031).
   */
  createGateway(
    options?: GatewayOptions & {
      mcpHub?: boolean;
      metrics?: GatewayMetricsOptions;
      responseCache?: ResponseCacheFlags;
    },
  ): Gateway;
  close(): Promise<void>;
}

export function createApp(options: AppOptions): App {
  const logger = options.logger ?? createLogger();
  // The caches below ask the database whether anything changed; once per turn of the event loop is enough (a
  // request's authentication always asks afresh), where each would otherwise ask on every request.
  const store = options.store ?? openStore(options.dataDir, { dataVersionReads: 'once-per-turn' });
  const keys = new ApiKeys(store);
  const usage = new UsageLog(store, {
    onError: (error) => logger.error({ err: error }, 'writing usage rows failed; they stay queued'),
  });
  const accounts = new Accounts({ store, keys, usage, prices: new PriceBook(store) });

  let secretsOpening: Promise<SecretStore> | undefined;
  const localSecrets = (): Promise<SecretStore> => {
    secretsOpening ??= openSecretStore({ dataDir: options.dataDir, mode: options.secretStoreMode }).then(
      ({ store: opened, warning }) => {
        if (warning) options.onSecretStoreWarning?.(warning);
        return opened;
      },
    );
    return secretsOpening;
  };
  const { providerSecrets } = options;
  const secrets = providerSecrets ? () => Promise.resolve(providerSecrets) : localSecrets;

  // Another process (the CLI) may add or remove providers while the gateway runs: when the database says
  // something changed, forget cached provider secrets too.
  let seenVersion = store.changeVersion();
  // The providers that have a stored key, as of seenVersion: asked once per change, not with a query per request.
  let withStoredKeys: Set<string> | null = null;
  const source: ProviderSource = {
    listProviders: () => store.listProviders(),
    changeVersion: () => store.changeVersion(),
    async getApiKey(providerId) {
      const secretStore = await secrets();
      const version = store.changeVersion();
      if (version !== seenVersion) {
        seenVersion = version;
        withStoredKeys = null;
        secretStore.invalidate();
      }
      withStoredKeys ??= new Set(
        store
          .listProviders()
          .filter((provider) => provider.has_api_key)
          .map((provider) => provider.id),
      );
      if (!withStoredKeys.has(providerId)) return null;
      return secretStore.get(secretAccountFor(providerId));
    },
  };
  // Keys from the environment stay in this process's memory; they are never written anywhere.
  const env = options.env ?? process.env;
  const environment = new EnvironmentProviders(env);
  for (const warning of environment.warnings) logger.warn(warning);
  const local =
    options.localProviders === false ? undefined : new LocalProviders({ env, logger, ...options.localProviders });
  const aliases = new ModelAliases(store);
  const registry = new ProviderRegistry({
    source,
    environment,
    local,
    aliases,
    adapters: [createOpenAIAdapter(), createAnthropicAdapter(), createGoogleAdapter()],
    logger,
  });
  const providers = new ProviderSettings(store, secrets);
  // Environment and local providers have no row: they take the default settings.
  const targetHealth = new TargetHealth({
    store,
    logger,
    settingsFor: (providerId) => cooldownSettingsOf(store.getProvider(providerId)?.cooldown),
  });
  const responseCache = new ResponseCacheSetting(store);
  const targetHealthWatcher: GenerationWatcher = { started: () => targetHealth.generationWatch() };
  // Remote servers' OAuth sign-ins and `${secret:NAME}` values go where provider keys go, never into mcp_settings.json.
  // Servers' sampling requests reach a model the way the chat does: through the gateway, with the chat's key.
  const mcp = new McpManager({
    dataDir: options.dataDir,
    logger,
    oauth: new OAuthCredentials(localSecrets),
    secrets: new McpSecrets(localSecrets),
    sampling: createGatewaySampling(
      {
        async *stream(request, signal, appTitle) {
          await gatewayForSampling();
          yield* chatGateway.stream(request, signal, appTitle);
        },
      },
      async () => (await registry.listModels()).map((model) => model.id),
    ),
  });
  // Spans over OTLP when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set; otherwise nothing of OpenTelemetry is loaded.
  const traceSettings = traceSettingsFrom(env);
  const tracing = traceSettings ? startTracing(traceSettings, logger) : undefined;
  const recordHubCall = (call: HubToolCall) => {
    tracing?.hubToolCall(call);
    store.mcpCalls.insert(call).catch((error: unknown) => {
      logger.error({ err: error }, 'recording an MCP hub call failed');
    });
  };
  // Besides the Activity screen's record, whatever else watches hub calls (a gateway's metrics).
  const hubCallObservers = new Set<(call: HubToolCall) => void>();
  const mcpHub = new McpHttpHub(mcp, {
    logger,
    onToolCall: (call) => {
      recordHubCall(call);
      for (const observe of hubCallObservers) observe(call);
    },
    ...(options.hubStartupWaitMs === undefined ? {} : { startupWaitMs: options.hubStartupWaitMs }),
  });
  const gateways = new Set<Gateway>();
  let chatGatewayUrl: string | null = null;
  const chatKey = new ChatKey(keys, secrets);
  const chatGateway = createHttpChatGateway({
    baseUrl: () => chatGatewayUrl,
    apiKey: () => chatKey.get(),
    renewApiKey: () => chatKey.renew(),
  });
  const listModelOptions = async () => toModelOptions(await registry.listModels());
  const chat = new ChatService({
    table: store.chat,
    library: store.chatLibrary,
    gateway: chatGateway,
    tools: createMcpChatTools(mcp, logger),
    models: listModelOptions,
    isPriced: (model) => accounts.prices.priceOf(model) !== null,
    logger,
    maxSteps: options.chatMaxSteps,
  });
  const chatCompare = new ChatCompare({
    chat,
    models: listModelOptions,
    table: store.chat,
    gateway: chatGateway,
    isPriced: (model) => accounts.prices.priceOf(model) !== null,
    logger,
  });
  keys.start();

  // `switchyard mcp serve` listens nowhere: its first sampling request starts a gateway on a free loopback port, for
  // this process only, so that the request takes the same path (routing, limits, usage) as everywhere else.
  let samplingListen: Promise<unknown> | undefined;
  const gatewayForSampling = async () => {
    if (chatGatewayUrl) return;
    samplingListen ??= app.createGateway({ mcpHub: false }).listen({ host: '127.0.0.1', port: 0 });
    await samplingListen.catch((error: unknown) => {
      samplingListen = undefined;
      throw error;
    });
  };

  const app: App = {
    dataDir: options.dataDir,
    logger,
    store,
    keys,
    usage,
    accounts,
    providers,
    registry,
    aliases,
    targetHealth,
    responseCache,
    mcp,
    mcpHub,
    recordHubCall,
    chat,
    chatCompare,
    secrets,
    createGateway({
      mcpHub: withHub = true,
      metrics: metricsOptions,
      responseCache: cacheFlags = {},
      watchers = [],
      ...gatewayOptions
    } = {}) {
      void local?.refresh(); // look for local servers now, so that the first request or listing finds them
      responseCache.override(cacheFlags);
      const metrics =
        metricsOptions && new GatewayMetrics({ targetStates: () => targetHealth.states(), ...metricsOptions });
      if (metrics) hubCallObservers.add(metrics.toolCallObserved);
      // accounts records through the usage log and prices each row; it also admits requests.
      const gateway = createGateway(
        {
          keys,
          providers: registry,
          usage: accounts,
          accounts,
          ...(withHub ? { mcpHub } : {}),
          health: { readiness: () => store.readiness() },
          targetHealth,
          // Always there, so that the setting turns the cache on or off for the next request without a restart.
          responseCache: {
            settings: () => responseCache.settings(),
            read: (key, now) => store.responseCache.read(key, now),
            write: (row, limits) => store.responseCache.write(row, limits),
          },
          ...(metrics ? { metrics: scrapeOf(metrics.registry) } : {}),
          logger,
        },
        {
          ...gatewayOptions,
          watchers: [
            targetHealthWatcher,
            ...watchers,
            ...(metrics ? [metrics.watcher] : []),
            ...(tracing ? [tracing.watcher] : []),
          ],
        },
      );
      gateways.add(gateway);
      return {
        ...gateway,
        async listen(address) {
          await tracing?.ready;
          const url = await gateway.listen(address);
          chatGatewayUrl ??= reachableUrl(url);
          return url;
        },
      };
    },
    async close() {
      try {
        await chat.close(); // its requests go through the gateway and its tools to MCP: it stops first
        await chatCompare.close();
        await mcp.stop();
        for (const gateway of gateways) await gateway.close();
        gateways.clear();
        await registry.close();
        await local?.close();
      } finally {
        // The final writes may fail (a full disk): each step is tried on its own, so that lost usage rows do not
        // cost the keys' last-used times too, and the database is closed regardless.
        const attempt = async (what: string, step: () => void | Promise<void>) => {
          try {
            await step();
          } catch (error) {
            logger.error({ err: error }, `${what} failed`);
          }
        };
        await attempt('exporting the last spans', async () => tracing?.close());
        await attempt('stopping the usage counters', () => accounts.close());
        await attempt('writing the last usage rows', () => usage.close());
        await attempt("writing the keys' last-used times", () => keys.close());
        await attempt('closing the database', () => store.close());
      }
    },
  };
  return app;
}

/** A gateway bound to every interface is reached through loopback. */
function reachableUrl(url: string): string {
  return url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:');
}
