import type { McpHubCall, McpResourceContent, McpServerStatus } from '../../../shared/bridge/types.js';
import type { Logger } from '../../common/index.js';
import { countTokenGroups } from '../../gateway/index.js';
import { ToolCatalog, toolResultMedia, toolResultText, type McpManager } from '../../mcp/index.js';
import { BridgeFailure } from '../bridge-errors.js';
import type { BridgeHandlerMap } from './handler-types.js';

type McpChannel =
  | 'mcp:list-servers'
  | 'mcp:get-settings'
  | 'mcp:save-settings'
  | 'mcp:set-server'
  | 'mcp:remove-server'
  | 'mcp:set-disabled'
  | 'mcp:set-auto-approve'
  | 'mcp:set-tool-disabled'
  | 'mcp:restart'
  | 'mcp:sign-in'
  | 'mcp:sign-out'
  | 'mcp:answer-elicitation'
  | 'mcp:answer-sampling'
  | 'mcp:logs'
  | 'mcp:list-tools'
  | 'mcp:call-tool'
  | 'mcp:list-resources'
  | 'mcp:read-resource'
  | 'mcp:import'
  | 'mcp:hub-calls';

export type BridgeMcp = Pick<
  McpManager,
  | 'list'
  | 'server'
  | 'serverConfig'
  | 'readSettings'
  | 'saveSettingsText'
  | 'saveServer'
  | 'removeServer'
  | 'setServerDisabled'
  | 'setToolAutoApprove'
  | 'setToolDisabled'
  | 'importSettingsText'
  | 'restart'
  | 'signIn'
  | 'signOut'
  | 'elicitations'
  | 'samplingApprovals'
  | 'logEntries'
  | 'listTools'
  | 'callTool'
  | 'listResources'
  | 'readResource'
  | 'setOAuthClientSecret'
>;

/** Edits of mcp_settings.json go through the manager, which writes the file and applies the change. */
/**
 * Runs `call` for one server; what goes wrong there (no such server, not connected, the server's own error) becomes
 * a failure for the user to read.
 */
export async function onMcpServer<T>(
  mcp: Pick<McpManager, 'server'>,
  name: string,
  call: () => T | Promise<T>,
): Promise<T> {
  if (!mcp.server(name)) throw new BridgeFailure('not-found', `There is no MCP server "${name}".`);
  try {
    return await call();
  } catch (error) {
    throw new BridgeFailure('unavailable', error instanceof Error ? error.message : String(error));
  }
}

export function mcpHandlers(
  mcp: BridgeMcp,
  hubCalls: (limit: number) => Promise<McpHubCall[]> = async () => [],
  logger?: Pick<Logger, 'warn'>,
): BridgeHandlerMap<McpChannel> {
  const onServer = <T>(name: string, call: () => T | Promise<T>) => onMcpServer(mcp, name, call);

  return {
    'mcp:list-servers': () => ({ servers: mcp.list() satisfies McpServerStatus[] }),
    'mcp:get-settings': () => mcp.readSettings(),
    'mcp:save-settings': ({ text, expectedText }) => mcp.saveSettingsText(text, expectedText),
    'mcp:set-server': async ({ name, entry, previousName, clientSecret, secrets }) => {
      const write = await mcp.saveServer(name, entry, previousName, secrets);
      if (write.saved && clientSecret !== undefined) await mcp.setOAuthClientSecret(name, clientSecret ?? undefined);
      return write;
    },
    'mcp:remove-server': async ({ name }) => ({ removed: await mcp.removeServer(name) }),
    'mcp:set-disabled': async ({ name, disabled }) => {
      await mcp.setServerDisabled(name, disabled);
      return { server: mcp.server(name) ?? null };
    },
    'mcp:set-auto-approve': async ({ name, tool, autoApprove }) => ({
      autoApprove: await mcp.setToolAutoApprove(name, tool, autoApprove),
    }),
    'mcp:set-tool-disabled': async ({ name, tool, disabled }) => ({
      disabledTools: await mcp.setToolDisabled(name, tool, disabled),
    }),
    'mcp:restart': async ({ name }) => ({ server: await onServer(name, () => mcp.restart(name)) }),
    'mcp:sign-in': async ({ name }) => {
      if (!mcp.server(name)) throw new BridgeFailure('not-found', `There is no MCP server "${name}".`);
      // The page to open arrives before the sign-in ends (when the browser comes back): answer with it at once.
      let opened!: (url: URL) => void;
      const authorizationUrl = new Promise<URL>((resolve) => (opened = resolve));
      const signedIn = mcp.signIn(name, { openAuthorizationUrl: (url) => opened(url) });
      try {
        const first = await Promise.race([authorizationUrl, signedIn.then(() => null)]);
        // A later failure (refused, timed out) shows in the server's status and log.
        signedIn.catch((error: unknown) => logger?.warn({ server: name, err: error }, 'MCP sign-in failed'));
        return { authorizationUrl: first?.href ?? null };
      } catch (error) {
        throw new BridgeFailure('unavailable', error instanceof Error ? error.message : String(error));
      }
    },
    'mcp:sign-out': async ({ name }) => ({ removed: await onServer(name, () => mcp.signOut(name)) }),
    'mcp:answer-elicitation': (answer) => ({
      answered: mcp.elicitations.answer(
        answer.id,
        answer.action === 'accept' ? { action: 'accept', content: answer.content } : { action: answer.action },
      ),
    }),
    'mcp:answer-sampling': ({ id, action }) => ({ answered: mcp.samplingApprovals.answer(id, action) }),
    'mcp:hub-calls': async ({ limit }) => ({ calls: await hubCalls(limit) }),
    'mcp:logs': async ({ name }) => ({ lines: await onServer(name, () => mcp.logEntries(name)) }),
    'mcp:list-tools': async ({ name }) => {
      const tools = await onServer(name, () => mcp.listTools(name));
      const config = mcp.serverConfig(name);
      const approved = new Set(config?.autoApprove ?? []);
      const disabled = new Set(config?.disabledTools ?? []);
      // Each tool as the chat offers it to a model, counted as a model would read it.
      const entries = new ToolCatalog([{ server: name, tools, autoApprove: [] }]).entries();
      const counts = await countTokenGroups(entries.map((entry) => [JSON.stringify(entry.functionTool)]));
      const offered = new Map(entries.map((entry, index) => [entry.tool, counts[index] ?? 0]));
      return {
        tools: tools.map((tool) => ({
          name: tool.name,
          ...(tool.title ? { title: tool.title } : {}),
          ...(tool.description ? { description: tool.description } : {}),
          autoApprove: approved.has(tool.name),
          disabled: disabled.has(tool.name),
          schemaTokens: offered.get(tool.name) ?? 0,
          inputSchema: tool.inputSchema,
        })),
      };
    },
    'mcp:call-tool': async ({ name, tool, arguments: args }) => {
      const result = await onServer(name, () => mcp.callTool(name, tool, args));
      return { isError: result.isError, text: toolResultText(result), media: toolResultMedia(result) };
    },
    'mcp:list-resources': async ({ name }) => ({
      resources: (await onServer(name, () => mcp.listResources(name))).map((resource) => ({
        uri: resource.uri,
        name: resource.name,
        ...(resource.title ? { title: resource.title } : {}),
        ...(resource.description ? { description: resource.description } : {}),
        ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
      })),
    }),
    'mcp:read-resource': async ({ name, uri }) => ({
      contents: (await onServer(name, () => mcp.readResource(name, uri))).map((content): McpResourceContent => {
        const mimeType = content.mimeType ? { mimeType: content.mimeType } : {};
        return 'text' in content
          ? { uri: content.uri, ...mimeType, text: String(content.text) }
          : { uri: content.uri, ...mimeType, blob: String(content.blob) };
      }),
    }),
    'mcp:import': ({ text, fileName, overwrite, moveSecrets }) =>
      mcp.importSettingsText(text, { overwrite, moveSecrets, ...(fileName ? { source: fileName } : {}) }),
  };
}
