// MCP bundles (.mcpb): read and check one (bundle-archive.ts, bundle-manifest.ts), work out its settings and what it
// runs (bundle-values.ts, compatibility.ts), and install it through the MCP manager (bundle-install.ts).

export {
  checkBundleSize,
  defaultBundleLimits,
  readBundleArchive,
  type BundleArchive,
  type BundleLimits,
} from './bundle-archive.js';
export { BundleError, parseManifest, type BundleManifest } from './bundle-manifest.js';
export { checkValues, type BundleInput, type BundleValues } from './bundle-values.js';
export {
  bundlesFolder,
  commitBundle,
  describeMissingSettings,
  prepareBundle,
  previewBundle,
  removeBundleFiles,
  type BundlePreview,
  type BundleSource,
  type PreparedBundle,
} from './bundle-install.js';
