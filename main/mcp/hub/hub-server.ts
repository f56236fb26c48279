// One client's view of the hub: an MCP server whose tools are the tools of every enabled, connected server of the
// manager, named `server__tool` as in the chat (tool-catalog.ts: safe for every provider's function-name rules,
// shortened with a hash when long), and whose resources and prompts are theirs. What the client sees is limited by
// its HubAccess; every tool call is reported to `onToolCall` (key, server, tool, duration, error), never its
// arguments or result. When a server's lists change, the client is told (`notifications/*/list_changed`).
// A client's first list waits (bounded) for the servers still starting: many clients list once and never again.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type ElicitRequestFormParams,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Prompt,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpHubCall } from '../../../shared/bridge/types.js';
import type { Logger } from '../../common/index.js';
import type { Disposable } from '../../../shared/events/index.js';
import type { McpManager } from '../mcp-manager.js';
import { baseFunctionName, type CatalogEntry } from '../tool-catalog.js';
import { toolResultText } from '../tool-results.js';
import { relayedSamplingError } from '../sampling-errors.js';
import type { HubAccess } from './hub-access.js';
import { hubCapabilities, HubUpstream, relayProgress, relayServerFeatures } from './hub-relays.js';

/** Who is on the other end: the gateway key (none over stdio) and what it may use. Updated on every request. */
export interface HubCaller {
  keyId: string | null;
  keyName: string | null;
  access: HubAccess;
}

/** One tool call through the hub, as it is recorded and as Activity lists it. */
export type HubToolCall = McpHubCall;

export interface HubOptions {
  logger: Logger;
  /** Called after every tool call through the hub; must not throw. */
  onToolCall?: (call: HubToolCall) => void;
  /**
   * How long a client's first list (tools, prompts or resources) waits for servers still starting; one still
   * starting then is left out and announced with `list_changed` when it connects. Default 10 s.
   */
  startupWaitMs?: number;
  /** Injectable clock (tests). */
  now?: () => number;
}

export const defaultStartupWaitMs = 10_000;

const hubInfo = { name: 'switchyard-mcp-hub', title: 'Switchyard MCP hub', version: '0.1.0' };
const maxErrorLength = 500;

export interface HubSession {
  server: Server;
  caller: HubCaller;
  dispose(): void;
}

/**
 * The MCP server for one client; connect it to a transport. `caller` may be replaced as requests arrive.
 * `upstream`: what the sessions of one hub share with the servers (log level, subscriptions).
 */
export function createHubSession(
  manager: McpManager,
  caller: HubCaller,
  options: HubOptions,
  upstream = new HubUpstream(manager),
): HubSession {
  const server = new Server(hubInfo, {
    capabilities: hubCapabilities(manager, caller.access),
    instructions:
      'Tools, resources and prompts of the MCP servers configured in Switchyard; tool names are <server>__<tool>.',
  });
  const session: HubSession = { server, caller, dispose: () => undefined };
  const now = options.now ?? Date.now;
  const access = () => session.caller.access;

  // Once per session: the first list waits, and so do the lists asked while it does; later ones answer at once.
  // Only list handlers await it, so initialize, ping and the rest are answered meanwhile.
  let startup: Promise<void> | undefined;
  let waitingForStartup = false;
  const afterStartup = () => {
    if (!startup) {
      waitingForStartup = true;
      startup = manager.whenStarted(options.startupWaitMs ?? defaultStartupWaitMs).finally(() => {
        waitingForStartup = false;
      });
    }
    return startup;
  };

  const visibleTools = (): { entry: CatalogEntry; tool: Tool }[] =>
    manager
      .toolCatalog()
      .entries()
      .filter((entry) => access().allowsTool(entry.server, entry.tool, entry.name))
      .flatMap((entry) => {
        const tool = manager.listTools(entry.server).find((candidate) => candidate.name === entry.tool);
        return tool ? [{ entry, tool }] : [];
      });

  const connectedServers = () =>
    manager
      .list()
      .filter((snapshot) => snapshot.state === 'connected' && access().allowsServer(snapshot.name))
      .map((snapshot) => snapshot.name);

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await afterStartup();
    return { tools: visibleTools().map(({ entry, tool }) => ({ ...tool, name: entry.name })) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    // A client that knows the name from an earlier session may call before it lists: its server may be starting.
    let entry = manager.toolCatalog().resolve(name);
    if (!entry) {
      await afterStartup();
      entry = manager.toolCatalog().resolve(name);
    }
    if (!entry || !access().allowsTool(entry.server, entry.tool, entry.name)) {
      throw new McpError(ErrorCode.InvalidParams, `There is no tool "${name}" here (see tools/list).`);
    }
    const started = now();
    const progress = relayProgress(request.params._meta?.progressToken, extra.sendNotification, options.logger);
    const result = await manager.callTool(entry.server, entry.tool, request.params.arguments ?? {}, {
      signal: extra.signal,
      ...progress.options,
      // A question from the server goes to this client when it can show one, else it is declined: never to the
      // person at Switchyard's own UI, who did not start this call.
      onElicitation: async (question, signal) => {
        if (!server.getClientCapabilities()?.elicitation) return { action: 'decline' };
        const { message, requestedSchema } = question;
        const answer = await server.elicitInput(
          { mode: 'form', message, requestedSchema: requestedSchema as ElicitRequestFormParams['requestedSchema'] },
          { signal, relatedRequestId: extra.requestId },
        );
        return answer.action === 'accept'
          ? { action: 'accept', content: answer.content ?? {} }
          : { action: answer.action };
      },
      // A model call the server asks for goes to this client when it samples; otherwise Switchyard answers it with
      // its own model, as the server's sampling settings say (main/mcp/sampling.ts).
      ...(server.getClientCapabilities()?.sampling
        ? {
            onSampling: ({ params }, signal) =>
              server.createMessage(params, { signal, relatedRequestId: extra.requestId }).catch((error: unknown) => {
                throw relayedSamplingError(error, McpError);
              }),
          }
        : {}),
    });
    await progress.delivered();
    const call: HubToolCall = {
      createdAt: started,
      keyId: session.caller.keyId,
      keyName: session.caller.keyName,
      client: server.getClientVersion()?.name ?? null,
      server: entry.server,
      tool: entry.tool,
      durationMs: now() - started,
      error: result.isError ? toolResultText(result).slice(0, maxErrorLength) : null,
    };
    try {
      options.onToolCall?.(call);
    } catch (error) {
      options.logger.warn({ err: error }, 'recording an MCP hub tool call failed');
    }
    const answer: CallToolResult = { ...result };
    return answer;
  });

  // Resource URIs are passed on as the servers wrote them (clients understand `file://`); which server a URI
  // belongs to is remembered from the listings, and looked up again for a URI not listed yet.
  const resourceOwners = new Map<string, string>();
  const listResources = async (): Promise<Resource[]> => {
    await afterStartup();
    const lists = await Promise.all(
      connectedServers().map(async (name) => {
        const resources = await manager.listResources(name).catch((error: unknown) => {
          options.logger.debug({ server: name, err: error }, 'listing resources for the hub failed');
          return [];
        });
        for (const resource of resources) if (!resourceOwners.has(resource.uri)) resourceOwners.set(resource.uri, name);
        return resources;
      }),
    );
    return lists.flat();
  };
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources() }));
  const listedOwner = async (uri: string) => {
    if (!resourceOwners.has(uri)) await listResources();
    return resourceOwners.get(uri);
  };
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    // A URI no server listed may still fit a server's template (`demo://item/{id}`).
    const owner = (await listedOwner(uri)) ?? (await relays.templateOwner(uri));
    if (owner === undefined || !access().allowsServer(owner)) {
      throw new McpError(ErrorCode.InvalidParams, `There is no resource "${uri}" here (see resources/list).`);
    }
    return { contents: await manager.readResource(owner, uri) };
  });

  const listPrompts = async (): Promise<{ name: string; server: string; prompt: Prompt }[]> => {
    await afterStartup();
    const lists = await Promise.all(
      connectedServers().map(async (name) => {
        const prompts = await manager.listPrompts(name).catch(() => []);
        return prompts.map((prompt) => ({ name: baseFunctionName(name, prompt.name), server: name, prompt }));
      }),
    );
    return lists.flat();
  };
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await listPrompts()).map(({ name, prompt }) => ({ ...prompt, name })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const found = (await listPrompts()).find((candidate) => candidate.name === request.params.name);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `There is no prompt "${request.params.name}" here.`);
    return manager.getPrompt(found.server, found.prompt.name, request.params.arguments);
  });

  // Notifications before the handshake completed (or after the client left) have nowhere to go; list changes while
  // the first lists wait would only repeat what their answers will hold. The rest (`always`: log messages, resource
  // updates) go out meanwhile too.
  const tell = (send: () => Promise<void>, always = false) => {
    if (server.getClientVersion() === undefined || (waitingForStartup && !always)) return;
    send().catch((error: unknown) => options.logger.debug({ err: error }, 'MCP hub notification not delivered'));
  };
  const relays = relayServerFeatures({
    server,
    manager,
    upstream,
    logger: options.logger,
    access,
    connectedServers,
    afterStartup,
    listedOwner,
    findPrompt: async (name) => (await listPrompts()).find((candidate) => candidate.name === name),
    tell: (send) => tell(send, true),
  });
  const subscriptions: Disposable[] = [
    manager.onToolsChanged(() => tell(() => server.sendToolListChanged())),
    manager.onListChanged(({ list }) =>
      tell(() => (list === 'resources' ? server.sendResourceListChanged() : server.sendPromptListChanged())),
    ),
    manager.onServerStatus((snapshot) => {
      if (snapshot.state !== 'connected' && snapshot.state !== 'disconnected') return;
      tell(() => server.sendResourceListChanged());
      tell(() => server.sendPromptListChanged());
    }),
  ];
  session.dispose = () => {
    for (const subscription of subscriptions.splice(0)) subscription.dispose();
    relays.dispose();
  };
  return session;
}
