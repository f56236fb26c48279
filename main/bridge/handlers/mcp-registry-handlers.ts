// The Discover view's channels: search the MCP Registry, the values an install takes, what it would write, and the
// install itself — the same steps as `switchyard mcp install` (main/mcp/registry), each call asking the registry
// again (the version the form was made for is pinned by the UI). The registry URL is the app's setting, or the one
// an install link names for its own install. An install link's inline entry is previewed and added here too.

import type { RegistryInstallForm } from '../../../shared/mcp/registry-types.js';
import { RegistrySetting } from '../../app/registry-setting.js';
import {
  InstallLinkError,
  InstallPlanError,
  RegistryClient,
  RegistryDocumentError,
  RegistryRequestError,
  commitInstall,
  confirmInstallLink,
  defaultRegistryUrl,
  prepareInstall,
  previewInstall,
  previewInstallLink,
  searchRegistry,
  secretStoreSink,
  serverSearchPath,
  type InstallTarget,
  type LinkInstallTarget,
  type PreparedInstall,
  type SecretSink,
} from '../../mcp/index.js';
import type { Store } from '../../store/index.js';
import { BridgeFailure } from '../bridge-errors.js';
import type { BridgeHandlerMap } from './handler-types.js';

type RegistryChannel =
  | 'mcp:registry-url'
  | 'mcp:set-registry-url'
  | 'mcp:registry-search'
  | 'mcp:registry-install-form'
  | 'mcp:registry-preview'
  | 'mcp:registry-install'
  | 'mcp:install-link-preview'
  | 'mcp:install-link-confirm';

export interface RegistryHandlerOptions {
  /** Where secret values go (see SecretSink); by default the secret store, as for a server's form. */
  secrets?: SecretSink;
  /** The PATH servers start with, where the runtime is looked for. */
  searchPath?: () => Promise<string>;
}

export function mcpRegistryHandlers(
  mcp: InstallTarget & LinkInstallTarget,
  store: Pick<Store, 'getSetting' | 'setSetting'>,
  options: RegistryHandlerOptions = {},
): BridgeHandlerMap<RegistryChannel> {
  const setting = new RegistrySetting(store);
  const client = (registry?: string) => new RegistryClient(registry ?? setting.url());
  const searchPath = options.searchPath ?? serverSearchPath;
  const prepare = (name: string, version: string | undefined, registry?: string) =>
    registryCall(() => prepareInstall(mcp, client(registry), { name, ...(version ? { version } : {}) }));

  return {
    'mcp:registry-url': () => ({ url: setting.url(), defaultUrl: defaultRegistryUrl }),
    'mcp:set-registry-url': async ({ url }) => {
      try {
        return { url: await setting.save(url), defaultUrl: defaultRegistryUrl };
      } catch (error) {
        throw new BridgeFailure('invalid-request', (error as Error).message);
      }
    },
    'mcp:registry-search': ({ search, cursor }) =>
      registryCall(() => searchRegistry(client(), mcp, { search, ...(cursor ? { cursor } : {}) })),
    'mcp:registry-install-form': async ({ name, version, registry }) =>
      installForm(await prepare(name, version, registry)),
    'mcp:registry-preview': async ({ name, version, registry, values }) => {
      const preview = await previewInstall(await prepare(name, version, registry), values, await searchPath());
      return { ...preview, missing: preview.missing.map((input) => input.key) };
    },
    'mcp:registry-install': async ({ name, version, registry, values }) => {
      const prepared = await prepare(name, version, registry);
      // Checked again here: the UI's preview may be older than the PATH or the registry.
      const preview = await previewInstall(prepared, values, await searchPath());
      if (preview.missing.length > 0) {
        throw new BridgeFailure(
          'invalid-request',
          `Required: ${preview.missing.map((input) => input.key).join(', ')}.`,
        );
      }
      if (preview.missingRuntime) throw new BridgeFailure('invalid-request', preview.missingRuntime);
      const taken = (await mcp.listSecrets()).map((secret) => secret.name);
      const secrets = options.secrets ?? secretStoreSink(mcp.secrets, taken);
      const written = await registryCall(() => commitInstall(mcp, prepared, values, secrets));
      return { ...written, entryName: prepared.entryName };
    },
    'mcp:install-link-preview': async ({ link }) =>
      registryCall(async () => previewInstallLink(link, await mcp.readSettings(), setting.url())),
    'mcp:install-link-confirm': ({ link, entryName }) =>
      registryCall(async () => ({ entryName: await confirmInstallLink(mcp, link, entryName) })),
  };
}

function installForm(prepared: PreparedInstall): RegistryInstallForm {
  const { server } = prepared.found;
  return {
    name: server.name,
    version: server.version,
    description: server.description ?? '',
    runsWith: prepared.runsWith,
    entryName: prepared.entryName,
    inputs: prepared.inputs,
    ...(prepared.installed ? { installedVersion: prepared.installed.version } : {}),
    kept: prepared.inputs.map((input) => input.key).filter((key) => prepared.installed?.values[key] !== undefined),
  };
}

/** The registry's failures as the UI's: unreachable is `unavailable`, a bad document or plan `invalid-request`. */
async function registryCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof RegistryRequestError) {
      throw new BridgeFailure(error.status === 404 ? 'not-found' : 'unavailable', error.message);
    }
    if (
      error instanceof RegistryDocumentError ||
      error instanceof InstallPlanError ||
      error instanceof InstallLinkError
    ) {
      throw new BridgeFailure('invalid-request', error.message);
    }
    throw error;
  }
}
