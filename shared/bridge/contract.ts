// THE bridge contract: every channel the UI can invoke and every event main pushes, in one place. Main validates
// each request with these zod schemas (main/bridge); the preload and the browser transport are generic over it,
// so adding a channel is one entry here plus its handler in main/bridge/handlers (the compiler asks for it).
// Channel names are `area:verb`. Requests are validated strictly; responses and events are produced by main
// itself, so they carry a type only (`returns<T>()`), no runtime schema.

import { z } from 'zod';
import {
  acceptedDocumentTypes,
  acceptedImageTypes,
  maxDocumentBytes,
  maxDocumentsPerMessage,
  maxImageBytes,
  maxFolderNameChars,
  maxImagesPerMessage,
  maxImportChars,
  maxMessageChars,
  maxPresetNameChars,
  maxResourcesPerMessage,
  maxStopSequenceChars,
  maxStopSequences,
  maxSystemPromptChars,
  maxComparedModels,
  maxTextFileChars,
  maxTextFilesPerMessage,
  maxTitleChars,
  maxBundleBytes,
} from './limits.js';
import {
  aliasNamePattern,
  aliasStrategies,
  maxAliasTargets,
  aliasNameRule,
  limitResets,
  maxAliasNameLength,
  maxCacheTtlSeconds,
  providerKinds,
  responseCacheScopes,
  usageGroupings,
  type ApiKeyDetails,
  type CreditLedgerEntry,
  type CreditsStatus,
  type GenerationInfo,
  type KeyWithUsage,
  type ModelAliasInfo,
  type ModelPriceInfo,
  type ProviderInfo,
  type ProviderTestResult,
  type ResponseCacheSettingView,
  type UsageRecord,
  type UsageSummaryRow,
} from '../api/index.js';
import type { RegistryInstallForm, RegistryInstallPreview, RegistrySearchPage } from '../mcp/registry-types.js';
import type { BundleInstallPreview } from '../mcp/bundle-types.js';
import type { InstallLinkPreview } from '../mcp/install-link.js';
import {
  connectToolIds,
  type ConnectPreview,
  type ConnectResult,
  type ConnectToolInfo,
  type ConnectUndoResult,
} from './connect-types.js';
import type {
  AppInfo,
  ChatEvent,
  ChatFolder,
  ChatMessage,
  ChatPreset,
  CompareEvent,
  CompareSnapshot,
  Conversation,
  ConversationDetail,
  ConversationsChanged,
  GatewayInfo,
  McpHubCall,
  McpImportReport,
  McpLogLine,
  McpPrompt,
  McpPromptMessages,
  McpResource,
  McpResourceContent,
  McpElicitation,
  McpSamplingApproval,
  McpServerStatus,
  McpSettingsDocument,
  McpSettingsWrite,
  McpTool,
  McpToolOutcome,
  ModelOption,
  ProviderModel,
} from './types.js';

/** A type with no runtime schema: for what main produces itself. */
export interface Returns<T> {
  readonly __returns?: T;
}
export function returns<T>(): Returns<T> {
  return {};
}

const noRequest = z.strictObject({});
const id = z.string().min(1).max(100);
const modelId = z
  .string()
  .regex(/^[^/\s]+\/\S+$/, 'must be "<provider>/<model>"')
  .max(300);
const temperature = z.number().min(0).max(2);
/** A conversation's or preset's settings beyond the system prompt and temperature (ChatSettings). */
const chatSettings = {
  maxTokens: z.int().min(1).max(100_000_000).nullish(),
  topP: z.number().min(0).max(1).nullish(),
  seed: z.int().nullish(),
  stop: z.array(z.string().min(1).max(maxStopSequenceChars)).max(maxStopSequences).optional(),
  reasoningEffort: z.enum(['low', 'medium', 'high']).nullish(),
};
/** A base64 data URL of one of `types`, whose decoded bytes are at most `maxBytes` (`what`: the error's noun). */
function base64DataUrl(types: readonly string[], maxBytes: number, what: string) {
  return z
    .string()
    .max(Math.ceil((maxBytes * 4) / 3) + 100, `${what} may be at most ${maxBytes / 1024 / 1024} MiB`)
    .refine(
      (url) => types.some((type) => url.startsWith(`data:${type};base64,`)),
      `must be a base64 data URL of ${types.join(', ')}`,
    );
}

const imageDataUrl = base64DataUrl(acceptedImageTypes, maxImageBytes, 'an image');
const documentDataUrl = base64DataUrl(acceptedDocumentTypes, maxDocumentBytes, 'a PDF');
/** One column of a comparison, by its place. */
const compareColumn = z
  .number()
  .int()
  .min(0)
  .max(maxComparedModels - 1);
const attachedFileName = z.string().trim().min(1).max(255);

// Providers: the API key is write-only. It may be sent (add, update) and is never answered: ProviderInfo carries
// only `has_api_key` and a four-character tail.
const providerId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,63}$/,
    'use 1–64 lowercase letters, digits, "-" or "_", starting with a letter or digit',
  );
const providerKind = z.enum(providerKinds);
const baseUrl = z.string().trim().min(1, 'a base URL is required').max(2_000);
const providerSecret = z.string().trim().min(1, 'must not be empty').max(8_192);
/** A provider's cooldowns (decision 030): failures before a target cools down (0 = never) and the first cooldown. */
const providerCooldown = z.strictObject({
  after: z.number().int().min(0).max(1000).optional(),
  seconds: z.number().int().min(1).max(600).optional(),
});

const aliasName = z.string().trim().max(maxAliasNameLength, aliasNameRule).regex(aliasNamePattern, aliasNameRule);

/** USD per million tokens. */
const perMillion = z.number().min(0).max(1_000_000);
const priceModel = z.string().trim().min(1).max(200);

// Gateway keys: the rules as the HTTP API names them (KeyRules); the service checks the details.
const keyName = z.string().trim().min(1, 'a key needs a name').max(100);
const usd = z.number().min(0).max(1_000_000_000);
const keyRules = {
  limit: usd.nullable().optional(),
  limit_reset: z.enum(limitResets).optional(),
  allowed_models: z.array(z.string().trim().min(1).max(300)).max(1_000).nullable().optional(),
  allowed_providers: z.array(z.string().trim().min(1).max(64)).max(200).nullable().optional(),
  management: z.boolean().optional(),
  expires_at: z.string().max(40).nullable().optional(),
  disabled: z.boolean().optional(),
  requests_per_minute: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
  tokens_per_minute: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
  allowed_mcp: z.array(z.string().trim().min(1).max(200)).max(1_000).nullable().optional(),
  metrics: z.boolean().optional(),
};

/** Unix milliseconds. */
const instant = z.number().int().min(0).max(8.64e15);
const usagePeriod = { since: instant.optional(), until: instant.optional() };

const serverName = z.string().min(1).max(200);

const settingsText = z.string().max(1_000_000);
/** A registry server's name (reverse-DNS, one slash) and, once the install form has it, the exact version. */
const registryServerRequest = z.strictObject({
  name: z.string().trim().min(3).max(200),
  version: z.string().trim().min(1).max(255).optional(),
  /** Another registry than the app's setting, for this install only (an install link's `registry=`). */
  registry: z.string().trim().min(1).max(2_000).optional(),
});
/** Longer than install-link.ts accepts, so that its own message says a link is too long. */
const installLinkText = z.string().min(1).max(10_000);
const registryValues = z
  .record(z.string().min(1).max(200), z.string().max(10_000))
  .refine((values) => Object.keys(values).length <= 100, 'at most 100 values');

/** A .mcpb file from the MCP screen (its bytes as base64) and its user_config values, each a list. */
const bundleRequest = z.strictObject({
  fileName: z.string().trim().min(1).max(255),
  data: z
    .string()
    .min(1)
    .max(Math.ceil(maxBundleBytes / 3) * 4, `a bundle of at most ${maxBundleBytes / 1024 / 1024} MiB`)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected the file as base64'),
  values: z
    .record(z.string().min(1).max(200), z.array(z.string().max(2_000)).max(10))
    .refine((values) => Object.keys(values).length <= 50, 'at most 50 settings'),
});

/** Env values or headers marked secret, by name. */
const secretValues = z
  .record(z.string().trim().min(1).max(200), z.string().min(1, 'a secret needs a value').max(10_000))
  .refine((values) => Object.keys(values).length <= 100, 'at most 100 secrets');

const connectRequest = z.strictObject({
  tool: z.enum(connectToolIds),
  model: z.string().trim().max(300).regex(/^\S*$/, 'a model name has no spaces').optional(),
});

export const bridgeContract = {
  'app:info': { request: noRequest, response: returns<AppInfo>() },

  'models:list': { request: noRequest, response: returns<{ models: ModelOption[] }>() },

  'mcp:list-servers': { request: noRequest, response: returns<{ servers: McpServerStatus[] }>() },
  'mcp:get-settings': { request: noRequest, response: returns<McpSettingsDocument>() },
  /** The raw editor: the whole file as typed; `expectedText` (what was loaded) refuses to overwrite other edits. */
  'mcp:save-settings': {
    request: z.strictObject({ text: settingsText, expectedText: settingsText.optional() }),
    response: returns<McpSettingsWrite>(),
  },
  /** The form: adds a server, or replaces `previousName` (renaming it when the name differs). */
  'mcp:set-server': {
    request: z.strictObject({
      name: z.string().trim().min(1, 'a server needs a name').max(200),
      entry: z.record(z.string(), z.unknown()),
      previousName: serverName.optional(),
      /** The OAuth client secret for the entry's `oauth.clientId`, to the keychain; null deletes it, absent keeps it. */
      clientSecret: z.string().min(1).max(4096).nullable().optional(),
      /** New values marked secret: stored in the secret store, the entry gets `${secret:NAME}` in their place. */
      secrets: z.strictObject({ env: secretValues.optional(), headers: secretValues.optional() }).optional(),
    }),
    response: returns<McpSettingsWrite>(),
  },
  'mcp:remove-server': { request: z.strictObject({ name: serverName }), response: returns<{ removed: boolean }>() },
  'mcp:set-disabled': {
    request: z.strictObject({ name: serverName, disabled: z.boolean() }),
    response: returns<{ server: McpServerStatus | null }>(),
  },
  'mcp:set-auto-approve': {
    request: z.strictObject({ name: serverName, tool: z.string().min(1).max(200), autoApprove: z.boolean() }),
    response: returns<{ autoApprove: string[] }>(),
  },
  /** Switches a tool off for the chat and the MCP hub, or on again; answers the server's disabledTools. */
  'mcp:set-tool-disabled': {
    request: z.strictObject({ name: serverName, tool: z.string().min(1).max(200), disabled: z.boolean() }),
    response: returns<{ disabledTools: string[] }>(),
  },
  'mcp:restart': { request: z.strictObject({ name: serverName }), response: returns<{ server: McpServerStatus }>() },
  /**
   * Starts the OAuth sign-in of a remote server and answers the page to open in the browser (null: nothing to
   * open). The sign-in completes in the background, when the browser comes back, and shows as the server's status.
   */
  'mcp:sign-in': {
    request: z.strictObject({ name: serverName }),
    response: returns<{ authorizationUrl: string | null }>(),
  },
  /** Forgets a remote server's OAuth sign-in (deletes its tokens) and starts it again without one. */
  'mcp:sign-out': { request: z.strictObject({ name: serverName }), response: returns<{ removed: boolean }>() },
  /** The person's answer to a server's question (mcp:elicitation); `answered` is false when it was withdrawn. */
  'mcp:answer-elicitation': {
    request: z.discriminatedUnion('action', [
      z.strictObject({
        id: z.string().min(1).max(100),
        action: z.literal('accept'),
        content: z.record(
          z.string().max(200),
          z.union([
            z.string().max(10_000),
            z.number().refine(Number.isFinite, 'expected a finite number'),
            z.boolean(),
            z.array(z.string().max(1_000)).max(100),
          ]),
        ),
      }),
      z.strictObject({ id: z.string().min(1).max(100), action: z.enum(['decline', 'cancel']) }),
    ]),
    response: returns<{ answered: boolean }>(),
  },
  /** The person's decision on a server's sampling request (mcp:sampling); `answered` is false when it was withdrawn. */
  'mcp:answer-sampling': {
    request: z.strictObject({ id: z.string().min(1).max(100), action: z.enum(['approve', 'decline']) }),
    response: returns<{ answered: boolean }>(),
  },
  /** What the server wrote to stderr, and our notes on its life, oldest first (the last 500 lines). */
  'mcp:logs': { request: z.strictObject({ name: serverName }), response: returns<{ lines: McpLogLine[] }>() },
  'mcp:list-tools': { request: z.strictObject({ name: serverName }), response: returns<{ tools: McpTool[] }>() },
  'mcp:call-tool': {
    request: z.strictObject({
      name: serverName,
      tool: z.string().min(1).max(200),
      arguments: z.record(z.string(), z.unknown()).default({}),
    }),
    response: returns<McpToolOutcome>(),
  },
  /** The server's prompts, each with its arguments (every value text). */
  'mcp:list-prompts': { request: z.strictObject({ name: serverName }), response: returns<{ prompts: McpPrompt[] }>() },
  /** A prompt's messages with the arguments filled in, for the chat's composer. */
  'mcp:get-prompt': {
    request: z.strictObject({
      name: serverName,
      prompt: z.string().min(1).max(200),
      arguments: z
        .record(z.string().max(200), z.string().max(10_000))
        .refine((values) => Object.keys(values).length <= 20, 'at most 20 arguments')
        .default({}),
    }),
    response: returns<McpPromptMessages>(),
  },
  'mcp:list-resources': {
    request: z.strictObject({ name: serverName }),
    response: returns<{ resources: McpResource[] }>(),
  },
  'mcp:read-resource': {
    request: z.strictObject({ name: serverName, uri: z.string().min(1).max(4_000) }),
    response: returns<{ contents: McpResourceContent[] }>(),
  },
  /** Copies the servers of a Claude Desktop, Cursor or Cline config (its text, read by the UI). */
  'mcp:import': {
    request: z.strictObject({
      text: settingsText,
      fileName: z.string().max(300).optional(),
      overwrite: z.boolean().default(false),
      /** Move the values of secret-looking variables and headers into the secret store (the default). */
      moveSecrets: z.boolean().default(true),
    }),
    response: returns<McpImportReport>(),
  },
  /** Tool calls other MCP clients made through the hub (/mcp, `switchyard mcp serve`), newest first. */
  'mcp:hub-calls': {
    request: z.strictObject({ limit: z.number().int().min(1).max(1_000).default(50) }),
    response: returns<{ calls: McpHubCall[] }>(),
  },

  /** The MCP Registry the Discover view asks (stored with the app's data), and the official one. */
  'mcp:registry-url': { request: noRequest, response: returns<{ url: string; defaultUrl: string }>() },
  /** Stores the registry URL; empty goes back to the official registry. */
  'mcp:set-registry-url': {
    request: z.strictObject({ url: z.string().trim().max(2_000) }),
    response: returns<{ url: string; defaultUrl: string }>(),
  },
  /** One page of the registry's servers matching `search`, with what is installed of each. */
  'mcp:registry-search': {
    request: z.strictObject({ search: z.string().trim().max(200), cursor: z.string().max(1_000).optional() }),
    response: returns<RegistrySearchPage>(),
  },
  /** What installing a registry server takes (its values to ask for), or updating the installed one. */
  'mcp:registry-install-form': {
    request: registryServerRequest,
    response: returns<RegistryInstallForm>(),
  },
  /** What the install would write with these values: the exact command, and what stops it (nothing written). */
  'mcp:registry-preview': {
    request: registryServerRequest.extend({ values: registryValues }),
    response: returns<RegistryInstallPreview>(),
  },
  /** Installs (or updates) the server, once the person confirmed the preview; secrets go where secrets go. */
  'mcp:registry-install': {
    request: registryServerRequest.extend({ values: registryValues }),
    response: returns<McpSettingsWrite & { entryName: string }>(),
  },
  /** What an install link (`switchyard://mcp/install?…`) would write; it writes nothing. */
  'mcp:install-link-preview': {
    request: z.strictObject({ link: installLinkText }),
    response: returns<InstallLinkPreview>(),
  },
  /** Adds an install link's inline entry as `entryName`, once the person confirmed it; secrets go to the store. */
  'mcp:install-link-confirm': {
    request: z.strictObject({ link: installLinkText, entryName: serverName }),
    response: returns<{ entryName: string }>(),
  },

  /** What installing this bundle shows and asks (nothing written): its name, signature, what it runs, settings. */
  'mcp:bundle-preview': { request: bundleRequest, response: returns<BundleInstallPreview>() },
  /** Unpacks the bundle and writes its entry, once the person confirmed; sensitive values to the secret store. */
  'mcp:bundle-install': { request: bundleRequest, response: returns<{ entryName: string }>() },

  'providers:list': { request: noRequest, response: returns<{ providers: ProviderInfo[] }>() },
  'providers:add': {
    request: z.strictObject({
      id: providerId,
      kind: providerKind,
      baseUrl,
      apiKey: providerSecret.nullable(),
      cooldown: providerCooldown.optional(),
    }),
    response: returns<{ provider: ProviderInfo }>(),
  },
  /** Absent fields stay; `apiKey: null` removes the stored key, a string replaces it. */
  'providers:update': {
    request: z.strictObject({
      id: providerId,
      kind: providerKind.optional(),
      baseUrl: baseUrl.optional(),
      apiKey: providerSecret.nullable().optional(),
      cooldown: providerCooldown.optional(),
    }),
    response: returns<{ provider: ProviderInfo }>(),
  },
  'providers:remove': { request: z.strictObject({ id: providerId }), response: returns<{ removed: true }>() },
  /** Lists the provider's models now, through its adapter: whether the connection works, and why not. */
  'providers:test': { request: z.strictObject({ id: providerId }), response: returns<ProviderTestResult>() },
  /**
   * Tests settings before they are saved, storing nothing. `apiKey`: a string the key typed, null none, absent the
   * key stored for provider `keyOf` (an edit that keeps its key).
   */
  'providers:test-settings': {
    request: z.strictObject({
      kind: providerKind,
      baseUrl,
      apiKey: providerSecret.nullable().optional(),
      keyOf: providerId.optional(),
      /** The id typed so far, for the messages; a partial one is ignored. */
      id: z.string().max(200).optional(),
    }),
    response: returns<ProviderTestResult>(),
  },
  'providers:models': {
    request: z.strictObject({ id: providerId }),
    response: returns<{ models: ProviderModel[] }>(),
  },
  /**
   * Where provider keys are kept, for the forms that take one: the OS keychain, the 0600 file used when there is
   * no keychain (`location` is its path), or a team server's database.
   */
  'providers:key-store': {
    request: noRequest,
    response: returns<{ kind: 'keychain' | 'file' | 'database'; location: string }>(),
  },

  /** Your overrides first, then the bundled prices; USD per million tokens. */
  'prices:list': { request: noRequest, response: returns<{ prices: ModelPriceInfo[] }>() },
  'prices:set': {
    request: z.strictObject({
      model: priceModel,
      input: perMillion,
      output: perMillion,
      cacheRead: perMillion.nullish(),
      cacheWrite: perMillion.nullish(),
    }),
    response: returns<{ price: ModelPriceInfo }>(),
  },
  'prices:unset': { request: z.strictObject({ model: priceModel }), response: returns<{ removed: boolean }>() },

  /** Names callers may send as `model`, each standing for a `<provider>/<model>`; by name. */
  'aliases:list': { request: noRequest, response: returns<{ aliases: ModelAliasInfo[] }>() },
  /**
   * Creates the alias or points it to another model, or to a group (`targets`, of which `target` is the first, with a
   * strategy and weights); `previous` is what it was (null: created).
   */
  'aliases:set': {
    request: z.strictObject({
      name: aliasName,
      target: modelId,
      targets: z.array(modelId).min(1).max(maxAliasTargets).optional(),
      strategy: z.enum(aliasStrategies).optional(),
      weights: z.array(z.number().positive()).nullable().optional(),
    }),
    response: returns<{ alias: ModelAliasInfo; previous: ModelAliasInfo | null }>(),
  },
  'aliases:remove': { request: z.strictObject({ name: aliasName }), response: returns<{ removed: boolean }>() },

  /** Never secrets. */
  'keys:list': { request: noRequest, response: returns<{ keys: KeyWithUsage[] }>() },
  /** The only answer that ever holds the secret: the UI shows it once. */
  'keys:create': {
    request: z.strictObject({ name: keyName, ...keyRules }),
    response: returns<{ key: ApiKeyDetails; secret: string }>(),
  },
  /** A new name and any rules; what is absent stays. */
  'keys:update': {
    request: z.strictObject({ id: z.string().min(1).max(100), name: keyName.optional(), ...keyRules }),
    response: returns<{ key: ApiKeyDetails }>(),
  },
  /** The key stops working at once, in this process and any other on the same data. */
  'keys:delete': {
    request: z.strictObject({ id: z.string().min(1).max(100) }),
    response: returns<{ deleted: true }>(),
  },

  'usage:summary': {
    request: z.strictObject({ by: z.enum(usageGroupings), ...usagePeriod }),
    response: returns<{ rows: UsageSummaryRow[]; total: UsageSummaryRow }>(),
  },
  /** Requests, newest first. */
  'usage:recent': {
    request: z.strictObject({ ...usagePeriod, limit: z.number().int().min(1).max(1_000).default(100) }),
    response: returns<{ rows: UsageRecord[] }>(),
  },
  'usage:generation': {
    request: z.strictObject({ id: z.string().min(1).max(200) }),
    response: returns<{ generation: GenerationInfo }>(),
  },
  /** The same CSV as `switchyard usage --csv`: a summary, or with `requests` every request of the period. */
  'usage:export-csv': {
    request: z.strictObject({
      kind: z.enum(['summary', 'requests']),
      by: z.enum(usageGroupings).default('day'),
      ...usagePeriod,
    }),
    response: returns<{ fileName: string; csv: string }>(),
  },

  'credits:show': {
    request: noRequest,
    response: returns<{ status: CreditsStatus; history: CreditLedgerEntry[] }>(),
  },
  'credits:set': { request: z.strictObject({ amount: usd }), response: returns<{ status: CreditsStatus }>() },
  'credits:add': {
    request: z.strictObject({ amount: usd.refine((amount) => amount > 0, 'must be more than 0') }),
    response: returns<{ status: CreditsStatus }>(),
  },
  'credits:unset': { request: noRequest, response: returns<{ status: CreditsStatus }>() },

  /** Where callers reach the gateway, and snippets for `model` (or a placeholder). */
  'gateway:info': { request: z.strictObject({ model: modelId.optional() }), response: returns<GatewayInfo>() },
  /** The response cache's stored setting, what the gateway runs with, and which `serve` flags override it. */
  'gateway:cache-setting': { request: noRequest, response: returns<ResponseCacheSettingView>() },
  /** Stores the response cache's setting; the gateway's next request runs with it (unless a flag overrides it). */
  'gateway:set-cache-setting': {
    request: z.strictObject({
      ttlSeconds: z.number().int('whole seconds').min(0).max(maxCacheTtlSeconds),
      scope: z.enum(responseCacheScopes),
    }),
    response: returns<ResponseCacheSettingView>(),
  },

  /** Agent tools pointed at the gateway by connect (main/connect); `model` is `<provider>/<model>` or an alias. */
  'connect:list': { request: noRequest, response: returns<{ tools: ConnectToolInfo[] }>() },
  /** The settings to copy, key as a placeholder: writes nothing, creates no key. */
  'connect:preview': { request: connectRequest, response: returns<ConnectPreview>() },
  /** Creates the tool's key and edits its config files; the only answer with the key's secret. */
  /** `secret`: the new key's, shown once; null for an MCP client, which gets no key. */
  'connect:apply': { request: connectRequest, response: returns<{ result: ConnectResult; secret: string | null }>() },
  'connect:undo': { request: z.strictObject({ tool: z.enum(connectToolIds) }), response: returns<ConnectUndoResult>() },

  'chat:list-conversations': {
    request: z.strictObject({ query: z.string().max(200).optional() }),
    response: returns<{ conversations: Conversation[] }>(),
  },
  'chat:create-conversation': {
    request: z.strictObject({
      model: modelId.nullish(),
      systemPrompt: z.string().max(maxSystemPromptChars).optional(),
      temperature: temperature.nullish(),
      ...chatSettings,
    }),
    response: returns<{ conversation: Conversation }>(),
  },
  'chat:get-conversation': { request: z.strictObject({ id }), response: returns<ConversationDetail>() },
  'chat:rename-conversation': {
    request: z.strictObject({ id, title: z.string().trim().min(1).max(maxTitleChars) }),
    response: returns<{ conversation: Conversation }>(),
  },
  'chat:delete-conversation': {
    request: z.strictObject({ id }),
    response: returns<{ deleted: boolean }>(),
  },
  'chat:update-conversation': {
    request: z.strictObject({
      id,
      model: modelId.nullish(),
      systemPrompt: z.string().max(maxSystemPromptChars).optional(),
      temperature: temperature.nullish(),
      ...chatSettings,
    }),
    response: returns<{ conversation: Conversation }>(),
  },
  /** Pins it or puts it in a folder (null: out of its folder); leaves its place in time as it was. */
  'chat:place-conversation': {
    request: z.strictObject({ id, pinned: z.boolean().optional(), folderId: id.nullish() }),
    response: returns<{ conversation: Conversation }>(),
  },
  'chat:list-presets': { request: noRequest, response: returns<{ presets: ChatPreset[] }>() },
  /** Creates a preset (without `id`) or replaces one; `isDefault` true makes it the only default. */
  'chat:save-preset': {
    request: z.strictObject({
      id: id.optional(),
      name: z.string().trim().min(1, 'a preset needs a name').max(maxPresetNameChars),
      model: modelId.nullable(),
      systemPrompt: z.string().max(maxSystemPromptChars),
      temperature: temperature.nullable(),
      ...chatSettings,
      isDefault: z.boolean().optional(),
    }),
    response: returns<{ preset: ChatPreset }>(),
  },
  'chat:delete-preset': { request: z.strictObject({ id }), response: returns<{ deleted: boolean }>() },
  'chat:list-folders': { request: noRequest, response: returns<{ folders: ChatFolder[] }>() },
  /** Creates a folder (without `id`) or renames one. */
  'chat:save-folder': {
    request: z.strictObject({
      id: id.optional(),
      name: z.string().trim().min(1, 'a folder needs a name').max(maxFolderNameChars),
    }),
    response: returns<{ folder: ChatFolder }>(),
  },
  /** Deletes the folder; its conversations stay, out of any folder. */
  'chat:delete-folder': { request: z.strictObject({ id }), response: returns<{ deleted: boolean }>() },
  'chat:send': {
    request: z
      .strictObject({
        conversationId: id,
        text: z.string().max(maxMessageChars),
        images: z.array(imageDataUrl).max(maxImagesPerMessage).default([]),
        /** MCP resources to attach: main reads each and adds its text or image to the message. */
        resources: z
          .array(z.strictObject({ server: serverName, uri: z.string().min(1).max(4_000) }))
          .max(maxResourcesPerMessage)
          .default([]),
        /** PDFs from the user's disk, sent as `file` parts. */
        documents: z
          .array(z.strictObject({ name: attachedFileName, dataUrl: documentDataUrl }))
          .max(maxDocumentsPerMessage)
          .default([]),
        /** Text and code files from the user's disk: their text goes into the message under their name. */
        textFiles: z
          .array(z.strictObject({ name: attachedFileName, text: z.string().max(maxTextFileChars) }))
          .max(maxTextFilesPerMessage)
          .default([]),
      })
      .refine(
        (request) =>
          request.text.trim() !== '' ||
          request.images.length + request.resources.length + request.documents.length + request.textFiles.length > 0,
        {
          error: 'a message needs text, an image, a file or a resource',
          path: ['text'],
        },
      ),
    response: returns<{ message: ChatMessage }>(),
  },
  /** Answers the user's message before the reply again (with `model`): a new version beside the reply. */
  'chat:regenerate': {
    request: z.strictObject({ conversationId: id, messageId: id, model: modelId.optional() }),
    response: returns<{ conversation: Conversation }>(),
  },
  /** Writes a new version of a message of the user's with this text, and answers it. */
  'chat:edit-message': {
    request: z.strictObject({ conversationId: id, messageId: id, text: z.string().max(maxMessageChars) }),
    response: returns<{ message: ChatMessage }>(),
  },
  /** Deletes one message and everything after it, in every version; answers the ids deleted. */
  'chat:delete-message': {
    request: z.strictObject({ conversationId: id, messageId: id }),
    response: returns<{ deleted: string[] }>(),
  },
  'chat:stop': { request: z.strictObject({ conversationId: id }), response: returns<{ stopped: boolean }>() },
  /** The conversation as a file to download: Markdown to read, JSON with everything (it imports back). */
  'chat:export-conversation': {
    request: z.strictObject({ id, format: z.enum(['markdown', 'json']) }),
    response: returns<{ fileName: string; mimeType: string; text: string }>(),
  },
  /** A conversation exported as JSON, as a new conversation. */
  'chat:import-conversation': {
    request: z.strictObject({
      text: z.string().max(maxImportChars, {
        error: `the file is larger than ${maxImportChars.toLocaleString('en-US')} characters`,
      }),
    }),
    response: returns<{ conversation: Conversation }>(),
  },
  /** Shows this version of a message (and what followed it); answers the conversation as now shown. */
  'chat:show-version': {
    request: z.strictObject({ conversationId: id, messageId: id }),
    response: returns<ConversationDetail>(),
  },
  /** One prompt to 2–4 models at once, without tools; the answers stream as chat:compare-event, nothing is stored. */
  'chat:compare': {
    request: z.strictObject({
      conversationId: id,
      text: z.string().trim().min(1, 'a comparison needs a prompt').max(maxMessageChars),
      models: z
        .array(modelId)
        .min(2, 'choose at least 2 models to compare')
        .max(maxComparedModels, `at most ${maxComparedModels} models can be compared`)
        .refine((models) => new Set(models).size === models.length, 'choose each model once'),
    }),
    response: returns<{ compareId: string }>(),
  },
  /** The conversation's latest comparison not yet picked or closed, with the answers so far; null when none. */
  'chat:compare-get': {
    request: z.strictObject({ conversationId: id }),
    response: returns<{ comparison: CompareSnapshot | null }>(),
  },
  /** Stops one column of a comparison, or all of them without `column`. */
  'chat:compare-stop': {
    request: z.strictObject({
      compareId: id,
      column: compareColumn.optional(),
    }),
    response: returns<{ stopped: boolean }>(),
  },
  /** The prompt and the chosen answer join the conversation, whose model becomes the chosen one; the rest go. */
  'chat:compare-pick': {
    request: z.strictObject({
      compareId: id,
      column: compareColumn,
    }),
    response: returns<{ conversation: Conversation; messages: ChatMessage[] }>(),
  },
  /** Stops a comparison and forgets it. */
  'chat:compare-discard': {
    request: z.strictObject({ compareId: id }),
    response: returns<{ discarded: boolean }>(),
  },
  'chat:resolve-approval': {
    request: z.strictObject({
      conversationId: id,
      toolCallId: z.string().min(1).max(200),
      decision: z.enum(['once', 'always', 'deny']),
    }),
    response: returns<{ resolved: boolean }>(),
  },
} as const satisfies Record<string, { request: z.ZodType; response: Returns<unknown> }>;

/** Every event main pushes to the UI, by name. */
export const bridgeEvents = {
  /** One conversation's running turn: deltas, tool calls, approvals, results, usage. */
  'chat:event': returns<ChatEvent>(),
  /** A comparison of models (chat:compare): its columns' deltas and answers. */
  'chat:compare-event': returns<CompareEvent>(),
  /** A conversation was created, renamed, changed or deleted: lists refresh. */
  'chat:conversations-changed': returns<ConversationsChanged>(),
  /** An MCP server's state changed. */
  'mcp:status': returns<McpServerStatus>(),
  /** An MCP server asks the person something during a tool call (elicitation): the UI shows its form. */
  'mcp:elicitation': returns<McpElicitation>(),
  /** The question was answered elsewhere, withdrawn, or its call ended: the UI closes its form. */
  'mcp:elicitation-ended': returns<{ id: string }>(),
  /** An MCP server asks to call a model during a tool call (sampling, approval "ask"): the UI asks the person. */
  'mcp:sampling': returns<McpSamplingApproval>(),
  /** The sampling request was decided elsewhere, withdrawn, or its call ended: the UI closes its prompt. */
  'mcp:sampling-ended': returns<{ id: string }>(),
  /** Servers were added to or removed from the settings (by the UI, the CLI or a text editor). */
  'mcp:servers-changed': returns<{ servers: McpServerStatus[] }>(),
  /** Requests were recorded in the usage log (at most once a second): Activity and Keys reload their numbers. */
  'usage:recorded': returns<Record<string, never>>(),
} as const satisfies Record<string, Returns<unknown>>;

export type BridgeContract = typeof bridgeContract;
export type BridgeChannel = keyof BridgeContract;
/** What the UI sends (fields with defaults may be left out). */
export type BridgeRequest<C extends BridgeChannel> = z.input<BridgeContract[C]['request']>;
/** What a handler receives after validation (defaults filled in). */
export type BridgeParsedRequest<C extends BridgeChannel> = z.output<BridgeContract[C]['request']>;
export type BridgeResponse<C extends BridgeChannel> =
  BridgeContract[C]['response'] extends Returns<infer T> ? T : never;

export type BridgeEvents = typeof bridgeEvents;
export type BridgeEventName = keyof BridgeEvents;
export type BridgeEventPayload<E extends BridgeEventName> = BridgeEvents[E] extends Returns<infer T> ? T : never;

export const bridgeChannelNames = Object.keys(bridgeContract) as BridgeChannel[];
export const bridgeEventNames = Object.keys(bridgeEvents) as BridgeEventName[];

/**
 * The shape of every channel and event name. The sandboxed preload cannot import this module, so it checks names
 * against this pattern (repeated there, with a test keeping the two equal) and main rejects unknown ones.
 */
export const bridgeNamePattern = /^[a-z]+(?:-[a-z]+)*:[a-z]+(?:-[a-z]+)*$/;

export function isBridgeChannel(name: string): name is BridgeChannel {
  return Object.hasOwn(bridgeContract, name);
}
