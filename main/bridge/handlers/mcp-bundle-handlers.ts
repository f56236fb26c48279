// The MCP screen's bundle install: a .mcpb file's bytes (base64, bounded by the contract) previewed — what it is,
// whether a signature is present, what it runs, its settings — and installed once confirmed, by the same steps as
// `switchyard mcp install ./server.mcpb` (main/mcp/bundles). Each call reads the bytes afresh: nothing is kept.

import type { BundleInstallPreview } from '../../../shared/mcp/bundle-types.js';
import {
  BundleError,
  commitBundle,
  prepareBundle,
  previewBundle,
  secretStoreSink,
  serverSearchPath,
  type InstallTarget,
  type PreparedBundle,
} from '../../mcp/index.js';
import { BridgeFailure } from '../bridge-errors.js';
import type { BridgeHandlerMap } from './handler-types.js';

export function mcpBundleHandlers(
  mcp: InstallTarget,
  dataDir: string,
  searchPath: () => Promise<string> = serverSearchPath,
): BridgeHandlerMap<'mcp:bundle-preview' | 'mcp:bundle-install'> {
  const prepare = async (data: string) =>
    bundleCall(async () =>
      prepareBundle(mcp, dataDir, Buffer.from(data, 'base64'), { searchPath: await searchPath() }),
    );
  return {
    'mcp:bundle-preview': async ({ data, values }) => describe(await prepare(data), values),
    'mcp:bundle-install': async ({ data, values }) => {
      const prepared = await prepare(data);
      const taken = (await mcp.listSecrets()).map((secret) => secret.name);
      await bundleCall(() => commitBundle(mcp, dataDir, prepared, values, secretStoreSink(mcp.secrets, taken)));
      return { entryName: prepared.entryName };
    },
  };
}

function describe(prepared: PreparedBundle, values: Record<string, string[]>): BundleInstallPreview {
  const preview = previewBundle(prepared, values);
  return {
    name: prepared.source.name,
    displayName: prepared.manifest.display_name ?? prepared.manifest.name,
    version: prepared.source.version,
    author: prepared.author,
    signature: preview.signature,
    entryName: prepared.entryName,
    folder: prepared.folder,
    ...(prepared.replaces ? { replaces: `${prepared.replaces.name} ${prepared.replaces.version}` } : {}),
    review: preview.review,
    inputs: prepared.inputs,
    missing: preview.missing.map((input) => input.key),
    problems: preview.problems,
  };
}

/** A bad bundle or value is the caller's: `invalid-request`, with the message that names the problem. */
async function bundleCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof BundleError) throw new BridgeFailure('invalid-request', error.message);
    throw error;
  }
}
