// The bridge contract implemented once, for every transport: Electron's IPC (main/electron) and HTTP for the
// browser (http-bridge.ts) both call `invoke`, and both forward `events`. A request is validated with the
// contract's schema before its handler sees it, and every failure comes back as `{ok: false, error}`.
//
// Adding a channel: its entry in shared/bridge/contract.ts, and its handler in one of handlers/*.ts (the
// BridgeHandlerMap type below refuses to compile until every channel has one).

import os from 'node:os';
import type * as Contract from '../../shared/bridge/contract.js';
import type { BridgeChannel } from '../../shared/bridge/contract.js';
import type { BridgeResult } from '../../shared/bridge/transport.js';
import type { AppInfo } from '../../shared/bridge/types.js';
import type { App } from '../app/index.js';
import type { ToolConnections } from '../connect/index.js';
import { toBridgeError } from './bridge-errors.js';
import { EventHub } from './event-hub.js';
import { throttle } from './throttle.js';
import { aliasesHandlers } from './handlers/aliases-handlers.js';
import { appHandlers } from './handlers/app-handlers.js';
import { chatHandlers } from './handlers/chat-handlers.js';
import { compareHandlers } from './handlers/compare-handlers.js';
import { connectHandlers } from './handlers/connect-handlers.js';
import { gatewayHandlers } from './handlers/gateway-handlers.js';
import type { BridgeHandler, BridgeHandlerMap } from './handlers/handler-types.js';
import { keysHandlers } from './handlers/keys-handlers.js';
import { mcpHandlers } from './handlers/mcp-handlers.js';
import { mcpPromptHandlers } from './handlers/mcp-prompt-handlers.js';
import { mcpRegistryHandlers } from './handlers/mcp-registry-handlers.js';
import { mcpBundleHandlers } from './handlers/mcp-bundle-handlers.js';
import { modelsHandlers } from './handlers/models-handlers.js';
import { providersHandlers } from './handlers/providers-handlers.js';
import { usageHandlers } from './handlers/usage-handlers.js';

/** What the handlers use of the app. */
export type BridgeApp = Pick<
  App,
  'chat' | 'mcp' | 'registry' | 'providers' | 'aliases' | 'keys' | 'accounts' | 'usage' | 'logger' | 'dataDir' | 'store'
> &
  Pick<App, 'chatCompare' | 'secrets' | 'responseCache'> &
  Partial<Pick<App, 'targetHealth'>>;

/**
 * The contract's request schemas (some hundred zod objects) are built at the first call rather than at start: a
 * headless gateway whose UI is never opened does not keep them in memory.
 */
let contract: Promise<typeof Contract> | undefined;
const loadContract = () => (contract ??= import('../../shared/bridge/contract.js'));

/** How often at most the UI hears that usage was recorded (it then reloads what it shows). */
const usageEventIntervalMs = 1_000;

export interface BridgeHandlersOptions {
  appInfo: () => AppInfo;
  /** Where "Connect a tool" finds the tools' config files (default: this user's home). */
  home?: string;
}

export interface BridgeHandlers {
  /** Validates and runs one call. Never rejects. */
  invoke(channel: string, request: unknown): Promise<BridgeResult>;
  readonly events: EventHub;
  readonly channels: readonly BridgeChannel[];
  /** Stops forwarding the app's events. */
  dispose(): void;
}

export function createBridgeHandlers(app: BridgeApp, options: BridgeHandlersOptions): BridgeHandlers {
  // main/connect (with the YAML, TOML and JSONC parsers of its file editors) is loaded when the panel first asks:
  // a gateway whose "Connect a tool" panel is never opened does not keep it in memory.
  let connections: Promise<ToolConnections> | undefined;
  const toolConnections = () =>
    (connections ??= import('../connect/index.js').then(
      ({ ToolConnections }) =>
        new ToolConnections({
          dataDir: app.dataDir,
          keys: app.keys,
          home: options.home ?? os.homedir(),
          env: process.env,
        }),
    ));
  const handlers: BridgeHandlerMap = {
    ...appHandlers(options.appInfo),
    ...gatewayHandlers(options.appInfo, app.responseCache),
    ...connectHandlers(toolConnections, options.appInfo),
    ...modelsHandlers(app.registry, app.accounts.prices),
    ...providersHandlers(app.providers, app.registry, app.accounts.prices, () => app.secrets(), app.targetHealth),
    ...aliasesHandlers(app.aliases),
    ...keysHandlers(app.keys, app.accounts),
    ...usageHandlers(app.accounts),
    ...mcpHandlers(app.mcp, (limit) => app.store.mcpCalls.recent(limit), app.logger),
    ...mcpPromptHandlers(app.mcp),
    ...mcpRegistryHandlers(app.mcp, app.store),
    ...mcpBundleHandlers(app.mcp, app.dataDir),
    ...chatHandlers(app.chat),
    ...compareHandlers(app.chatCompare),
  };
  const events = new EventHub();
  const usageRecorded = throttle(() => events.emit('usage:recorded', {}), usageEventIntervalMs);
  const subscriptions = [
    app.usage.onRecord(() => usageRecorded.call()),
    usageRecorded,
    app.chat.onEvent((event) => events.emit('chat:event', event)),
    app.chat.onConversationsChanged((change) => events.emit('chat:conversations-changed', change)),
    app.chatCompare.onEvent((event) => events.emit('chat:compare-event', event)),
    app.mcp.onServerStatus((status) => events.emit('mcp:status', status)),
    app.mcp.onServersChanged((servers) => events.emit('mcp:servers-changed', { servers })),
    app.mcp.elicitations.onPrompt((prompt) => events.emit('mcp:elicitation', prompt)),
    app.mcp.elicitations.onPromptEnded((ended) => events.emit('mcp:elicitation-ended', ended)),
    app.mcp.samplingApprovals.onPrompt((prompt) => events.emit('mcp:sampling', prompt)),
    app.mcp.samplingApprovals.onPromptEnded((ended) => events.emit('mcp:sampling-ended', ended)),
  ];

  return {
    events,
    channels: Object.keys(handlers) as BridgeChannel[],
    async invoke(channel, request) {
      const { bridgeContract, isBridgeChannel } = await loadContract();
      if (!isBridgeChannel(channel)) {
        return { ok: false, error: { code: 'unknown-channel', message: `There is no bridge channel "${channel}".` } };
      }
      try {
        const parsed = bridgeContract[channel].request.parse(request ?? {});
        const handler = handlers[channel] as BridgeHandler<BridgeChannel>;
        return { ok: true, value: await handler(parsed as never) };
      } catch (error) {
        return { ok: false, error: toBridgeError(error, app.logger, channel) };
      }
    },
    dispose() {
      for (const subscription of subscriptions) subscription.dispose();
    },
  };
}
