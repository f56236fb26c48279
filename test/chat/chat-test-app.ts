// The real app on a temp data dir for the chat tests: a provider `fake` pointing at the scripted upstream,
// server-everything (the published reference MCP server) in mcp_settings.json, the gateway listening on a free
// loopback port, and the MCP servers started.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import type { BridgeChannel, BridgeRequest, BridgeResponse } from '../../shared/bridge/contract.js';
import type { BridgeErrorInfo } from '../../shared/bridge/transport.js';
import type { ChatEvent, ChatMessage, Conversation } from '../../shared/bridge/types.js';
import { createApp, type App } from '../../main/app/index.js';
import { createBridgeHandlers, type BridgeHandlers } from '../../main/bridge/index.js';
import { repoRoot } from '../support/cli.js';
import { closeInTurn, useHarness } from '../support/use-harness.js';
import { waitFor } from '../support/wait-for.js';
import { startScriptedUpstream, type ScriptedUpstream } from './scripted-upstream.js';

export const everythingBin = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

export function everythingSettings(extra: Record<string, unknown> = {}) {
  return { mcpServers: { everything: { command: process.execPath, args: [everythingBin, 'stdio'], ...extra } } };
}

/** A data dir with the provider and the MCP settings, as `switchyard serve` or the app would find it. */
export async function prepareDataDir(upstream: ScriptedUpstream): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-chat-'));
  const setup = createApp({ dataDir, secretStoreMode: 'file', localProviders: false, env: {}, logger: silent });
  try {
    await setup.providers.add({ id: 'fake', kind: 'openai', baseUrl: upstream.baseUrl, apiKey: 'sk-upstream-test' });
  } finally {
    await setup.close();
  }
  fs.writeFileSync(path.join(dataDir, 'mcp_settings.json'), JSON.stringify(everythingSettings(), null, 2));
  return dataDir;
}

const silent = pino({ level: 'silent' });

export interface ChatTestApp {
  app: App;
  upstream: ScriptedUpstream;
  dataDir: string;
  events: ChatEvent[];
  close(): Promise<void>;
}

export async function startChatTestApp(options: { maxSteps?: number } = {}): Promise<ChatTestApp> {
  const upstream = await startScriptedUpstream();
  const dataDir = await prepareDataDir(upstream);
  const app = createApp({
    dataDir,
    secretStoreMode: 'file',
    localProviders: false,
    env: {},
    logger: silent,
    chatMaxSteps: options.maxSteps,
  });
  const gateway = app.createGateway();
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  await app.mcp.start();
  const servers = await app.mcp.waitUntilSettled();
  if (servers[0]?.state !== 'connected') throw new Error(`server-everything did not start: ${JSON.stringify(servers)}`);
  const events: ChatEvent[] = [];
  app.chat.onEvent((event) => events.push(event));
  return {
    app,
    upstream,
    dataDir,
    events,
    close: () => closeInTurn([app, upstream], dataDir),
  };
}

/** The chat test app, started before the file's tests and closed after them; its fields are read inside tests. */
export function useChatTestApp(options: { maxSteps?: number } = {}): ChatTestApp {
  const env = useHarness(() => startChatTestApp(options));
  return {
    get app() {
      return env().app;
    },
    get upstream() {
      return env().upstream;
    },
    get dataDir() {
      return env().dataDir;
    },
    get events() {
      return env().events;
    },
    close: () => env().close(),
  };
}

/** Sends `text` in a new conversation with `model` and waits for the turn to end: the conversation's last message. */
export async function replyInNewChat(env: ChatTestApp, text: string, model = 'fake/scripted-1'): Promise<ChatMessage> {
  const conversation = await env.app.chat.createConversation({ model });
  await env.app.chat.send(conversation.id, text);
  await waitFor(
    () =>
      env.events.some((event: ChatEvent) => event.conversationId === conversation.id && event.type === 'turn-finish'),
    { what: 'the end of the turn' },
  );
  return (await env.app.chat.getConversation(conversation.id)).messages.at(-1)!;
}

export interface ChatBridge {
  /** The app, once the file's tests run. */
  readonly env: ChatTestApp;
  /** A bridge call as the UI makes it; throws when it fails. */
  call<C extends BridgeChannel>(channel: C, request: BridgeRequest<C>): Promise<BridgeResponse<C>>;
  /** A bridge call that must fail: its error. */
  failure(channel: BridgeChannel, request: unknown): Promise<BridgeErrorInfo>;
  /** The conversation's events of this type so far. */
  eventsOf<Type extends ChatEvent['type']>(conversationId: string, type: Type): Extract<ChatEvent, { type: Type }>[];
  /** Runs `action` and waits for the end of the turns it starts (two when it stops one and starts another). */
  andTurn<T>(conversationId: string, action: () => Promise<T>, turns?: number): Promise<T>;
  /** A new conversation with the scripted model, each text sent and answered in turn. */
  conversationWith(...texts: string[]): Promise<Conversation>;
  /** Waits for the conversation's first approval request and approves its call once. */
  approveOnce(conversationId: string): Promise<void>;
}

/** The chat test app with the bridge's handlers over it, started before the file's tests and closed after them. */
export function useChatBridge(): ChatBridge {
  const env = useChatTestApp();
  let bridge: BridgeHandlers | undefined;
  beforeAll(() => {
    bridge = createBridgeHandlers(env.app, { appInfo: () => ({ version: '0.0.0', gatewayUrl: null }) });
  });
  afterAll(() => {
    bridge?.dispose();
  });
  const call: ChatBridge['call'] = async (channel, request) => {
    const result = await bridge!.invoke(channel, request);
    if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
    return result.value as BridgeResponse<typeof channel>;
  };
  const eventsOf: ChatBridge['eventsOf'] = <Type extends ChatEvent['type']>(conversationId: string, type: Type) =>
    env.events.filter(
      (event): event is Extract<ChatEvent, { type: Type }> =>
        event.conversationId === conversationId && event.type === type,
    );
  const andTurn: ChatBridge['andTurn'] = async (conversationId, action, turns = 1) => {
    const before = eventsOf(conversationId, 'turn-finish').length;
    const result = await action();
    await waitFor(() => eventsOf(conversationId, 'turn-finish').length >= before + turns, {
      what: 'the end of the turn',
    });
    return result;
  };
  return {
    env,
    call,
    async failure(channel, request) {
      const result = await bridge!.invoke(channel, request);
      if (result.ok) throw new Error(`${channel} succeeded: ${JSON.stringify(result.value)}`);
      return result.error;
    },
    eventsOf,
    andTurn,
    async conversationWith(...texts) {
      const { conversation } = await call('chat:create-conversation', { model: 'fake/scripted-1' });
      for (const text of texts)
        await andTurn(conversation.id, () => call('chat:send', { conversationId: conversation.id, text }));
      return conversation;
    },
    async approveOnce(conversationId) {
      const { approval } = await waitFor(() => eventsOf(conversationId, 'approval-required')[0], {
        what: 'the approval request',
      });
      await call('chat:resolve-approval', { conversationId, toolCallId: approval.toolCallId, decision: 'once' });
    },
  };
}
