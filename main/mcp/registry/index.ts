// The MCP Registry: read it (registry-client.ts), plan an install from a server.json (install-plan.ts, pure, for
// the CLI, the Discover view, install links and bundles), and install through the MCP manager (registry-install.ts).

export {
  RegistryClient,
  RegistryRequestError,
  defaultRegistryUrl,
  normalizeRegistryUrl,
  type RegistryClientOptions,
  type RegistrySearch,
} from './registry-client.js';
export {
  RegistryDocumentError,
  parseServerJson,
  type RegistryPage,
  type RegistryServer,
  type ServerJson,
} from './server-json.js';
export {
  InstallPlanError,
  chooseInstallOption,
  installInputs,
  optionRunsWith,
  planInstall,
  serverNeedsSecrets,
  serverRunsWith,
  type InstallOption,
  type InstallPlan,
  type InstallSource,
} from './install-plan.js';
export {
  commitInstall,
  defaultEntryName,
  describeMissing,
  installedServers,
  isNewerVersion,
  prepareInstall,
  previewInstall,
  secretStoreSink,
  type InstallPreview,
  type InstallTarget,
  type InstalledServer,
  type PreparedInstall,
  type SecretSink,
} from './registry-install.js';
export type { InstallInput, RunsWith } from '../../../shared/mcp/registry-types.js';
export { searchRegistry } from './registry-search.js';
export { describeMissingProgram, findProgram } from './runtime-check.js';
