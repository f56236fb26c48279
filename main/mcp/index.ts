// MCP: the settings file, the servers' lifecycle, and their tools as one catalog for the chat.

export {
  McpManager,
  type ListChangedEvent,
  type McpManagerOptions,
  type SettingsChangedEvent,
  type ToolsChangedEvent,
} from './mcp-manager.js';
export {
  ToolCatalog,
  baseFunctionName,
  maxFunctionNameLength,
  type CatalogEntry,
  type CatalogServer,
} from './tool-catalog.js';
export { errorResult, toolResultMedia, toolResultText, type McpContentBlock, type ToolResult } from './tool-results.js';
// The file is written only through McpManager's methods: no writer is exported.
export { mergeServers, type ImportOptions, type ImportPreview, type ImportReport } from './import-config.js';
export {
  readSettingsFile,
  settingsFileName,
  settingsFilePath,
  type RawSettings,
  type SettingsFile,
} from './settings-file.js';
export { type EditableServer, type EditableSettings, type SettingsWrite } from './settings-editor.js';
export {
  defaultStartupTimeoutSeconds,
  defaultToolTimeoutSeconds,
  formatProblem,
  maxTimeoutSeconds,
  minTimeoutSeconds,
  parseSettings,
  type ServerConfig,
} from './settings-schema.js';
// From the credential store itself: oauth/index.js also holds the sign-in, which loads the MCP SDK.
export { OAuthCredentials, oauthAccountFor } from './oauth/credential-store.js';
export type { SignInRequest } from './server-sign-in.js';
export { defaultRestartPolicy, type RestartPolicy } from './restart-policy.js';
export { McpSecrets, type McpSecretStore } from './mcp-secrets.js';
export { secretNamePattern, secretNameProblem, secretReference } from './secret-references.js';
export type { FoundSecret, SecretField, SecretValues } from './secret-edits.js';
export type { SecretHint } from './secret-settings.js';
export { formatLogEntry, type LogEntry } from './log-buffer.js';
export { ElicitationPrompts, type ElicitationPrompt } from './elicitation-prompts.js';
export {
  chooseSamplingModel,
  SamplingApprovals,
  type SamplingApprovalAnswer,
  type SamplingApprovalRequest,
  type SamplingModels,
  type SamplingResult,
} from './sampling.js';
export {
  samplingFailed,
  samplingInvalid,
  samplingRefused,
  samplingRejected,
  SamplingError,
  userRejectedCode,
} from './sampling-errors.js';
export type {
  ElicitationAnswer,
  ElicitationContent,
  ElicitationHandler,
  ElicitationRequest,
  SamplingHandler,
  SamplingRequest,
  ServerSnapshot,
  ServerState,
  ServerStatus,
  ServerTransportKind,
  SettingsProblem,
  ToolCallOptions,
} from './types.js';
export {
  HubAccess,
  McpHttpHub,
  serveHubOverStdio,
  type HttpHubOptions,
  type HubCaller,
  type HubHttpExchange,
  type HubOptions,
  type HubToolCall,
} from './hub/index.js';
export {
  InstallPlanError,
  RegistryClient,
  RegistryDocumentError,
  RegistryRequestError,
  commitInstall,
  defaultRegistryUrl,
  describeMissing,
  isNewerVersion,
  normalizeRegistryUrl,
  prepareInstall,
  previewInstall,
  searchRegistry,
  secretStoreSink,
  type InstallInput,
  type InstallTarget,
  type PreparedInstall,
  type SecretSink,
} from './registry/index.js';
export { serverSearchPath } from './login-shell-path.js';
export {
  InstallLinkError,
  confirmInstallLink,
  maxInstallLinkLength,
  parseInstallLink,
  previewInstallLink,
  type InstallLink,
  type LinkInstallTarget,
} from './install-link.js';
export {
  BundleError,
  checkBundleSize,
  commitBundle,
  describeMissingSettings,
  prepareBundle,
  previewBundle,
  type BundleInput,
  type BundleValues,
  type PreparedBundle,
} from './bundles/index.js';
