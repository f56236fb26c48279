// The composition root: builds every service once, for `switchyard serve`, the other CLI commands and the
// Electron shell alike. Each resource has one owner here and `close()` disposes all of them.

import { ApiKeys, UsageLog } from '../accounts/index.js';
import { createGateway, type Gateway } from '../gateway/index.js';
import { McpManager } from '../mcp/index.js';
import { createOpenAIAdapter, ProviderRegistry, type ProviderSource } from '../providers/index.js';
import { ProviderSettings, secretAccountFor } from '../providers/provider-settings.js';
import { openSecretStore, type SecretStore } from '../secrets/index.js';
import { openStore, type Store } from '../store/index.js';
import { createLogger, type Logger } from './logger.js';

export interface AppOptions {
  dataDir: string;
  logger?: Logger;
  /** `keychain`, `file` or unset for auto-detection (defaults to SWITCHYARD_SECRET_STORE). */
  secretStoreMode?: string;
  /** Called once with the fallback warning when provider secrets cannot go to the OS keychain. */
  onSecretStoreWarning?: (warning: string) => void;
}

export interface App {
  readonly dataDir: string;
  readonly logger: Logger;
  readonly store: Store;
  readonly keys: ApiKeys;
  readonly usage: UsageLog;
  readonly providers: ProviderSettings;
  readonly registry: ProviderRegistry;
  /** The user's MCP tool servers; idle until `mcp.start()` (serve and the desktop app call it). */
  readonly mcp: McpManager;
  /** Opened on first use: probing the keychain costs a D-Bus round trip that most CLI commands don't need. */
  secrets(): Promise<SecretStore>;
  createGateway(): Gateway;
  close(): Promise<void>;
}

export function createApp(options: AppOptions): App {
  const logger = options.logger ?? createLogger();
  const store = openStore(options.dataDir);
  const keys = new ApiKeys(store);
  const usage = new UsageLog(store, {
    onError: (error) => logger.error({ err: error }, 'writing usage rows failed; they stay queued'),
  });

  let secretsOpening: Promise<SecretStore> | undefined;
  const secrets = (): Promise<SecretStore> => {
    secretsOpening ??= openSecretStore({ dataDir: options.dataDir, mode: options.secretStoreMode }).then(
      ({ store: opened, warning }) => {
        if (warning) options.onSecretStoreWarning?.(warning);
        return opened;
      },
    );
    return secretsOpening;
  };

  // Another process (the CLI) may add or remove providers while the gateway runs: when the database says
  // something changed, forget cached provider secrets too.
  let seenVersion = store.changeVersion();
  const source: ProviderSource = {
    listProviders: () => store.listProviders(),
    changeVersion: () => store.changeVersion(),
    async getApiKey(providerId) {
      const secretStore = await secrets();
      const version = store.changeVersion();
      if (version !== seenVersion) {
        seenVersion = version;
        secretStore.invalidate();
      }
      const provider = store.getProvider(providerId);
      if (!provider?.has_api_key) return null;
      return secretStore.get(secretAccountFor(providerId));
    },
  };
  const registry = new ProviderRegistry({ source, adapters: [createOpenAIAdapter()], logger });
  const providers = new ProviderSettings(store, secrets);
  const mcp = new McpManager({ dataDir: options.dataDir, logger });
  const gateways = new Set<Gateway>();
  keys.start();

  return {
    dataDir: options.dataDir,
    logger,
    store,
    keys,
    usage,
    providers,
    registry,
    mcp,
    secrets,
    createGateway() {
      const gateway = createGateway({ keys, providers: registry, usage, logger });
      gateways.add(gateway);
      return gateway;
    },
    async close() {
      await mcp.stop();
      for (const gateway of gateways) await gateway.close();
      gateways.clear();
      await registry.close();
      // The final flushes may fail (a full disk); the database is closed regardless.
      try {
        usage.close();
        keys.close();
      } catch (error) {
        logger.error({ err: error }, 'writing the last usage rows failed');
      } finally {
        store.close();
      }
    },
  };
}
