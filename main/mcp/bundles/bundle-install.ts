// Installing a .mcpb bundle, in the order a person needs it: read and check the archive and its manifest (nothing
// is written for a bad one), say what it asks for (user_config) and whether it may run here (compatibility), show
// what it runs — and only then, confirmed, unpack it under `<data-dir>/mcp-bundles/<entry>/` (into a temporary
// folder first, renamed into place, so a failure leaves nothing) and write the entry through the MCP manager, with
// sensitive values in the secret store. Removing the entry removes the folder (removeBundleFiles).

import { createHash, randomUUID } from 'node:crypto';
import { chmod, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { reviewServerEntry, type EntryReview } from '../../../shared/mcp/review-entry.js';
import type { InstallTarget, SecretSink } from '../registry/registry-install.js';
import { readBundleArchive, type BundleFile, type BundleLimits } from './bundle-archive.js';
import { BundleError, parseManifest, type BundleManifest } from './bundle-manifest.js';
import { bundleInputs, checkValues, fillMcpConfig, type BundleInput, type BundleValues } from './bundle-values.js';
import { checkCompatibility } from './compatibility.js';

/** The folder under the data folder that holds every unpacked bundle, one folder per entry. */
export const bundlesFolderName = 'mcp-bundles';

/** What an installed entry records in `source.bundle`. */
export interface BundleSource {
  name: string;
  version: string;
  sha256: string;
  /** A signature block is appended to the file. Its certificate chain is not verified. */
  signed: boolean;
  /** The entry's folder, by name, under `<data-dir>/mcp-bundles/`. */
  folder: string;
}

export interface PreparedBundle {
  manifest: BundleManifest;
  files: BundleFile[];
  source: BundleSource;
  entryName: string;
  /** Where it will be unpacked: `${__dirname}`. */
  folder: string;
  inputs: BundleInput[];
  /** The bundle's author, as its manifest names them. */
  author: string;
  /** Set when an entry of this name came from a bundle: installing replaces it and its files. */
  replaces?: BundleSource;
}

export interface BundlePreview {
  review: EntryReview;
  missing: BundleInput[];
  problems: string[];
  /** "Signature present, not verified" or "Not signed". */
  signature: string;
}

/**
 * Reads and checks the bundle (archive, manifest, platform and runtimes); writes nothing. Throws a BundleError
 * that names the problem.
 */
export async function prepareBundle(
  target: InstallTarget,
  dataDir: string,
  bytes: Uint8Array,
  options: { entryName?: string; searchPath: string; limits?: BundleLimits },
): Promise<PreparedBundle> {
  const archive = readBundleArchive(bytes, options.limits);
  const manifestFile = archive.files.find((file) => file.path === 'manifest.json');
  if (!manifestFile) throw new BundleError('The bundle has no manifest.json at its top level.');
  const manifest = parseManifest(manifestFile.data);
  refuseForeignReferences(manifest);
  await checkCompatibility(manifest, options.searchPath);
  const entryName = options.entryName ?? defaultEntryName(manifest.name);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(entryName)) {
    throw new BundleError(`"${entryName}" cannot name a bundle's entry: use letters, digits, ".", "_" and "-".`);
  }
  const settings = await target.readSettings();
  const existing = settings.servers.find((server) => server.name === entryName);
  const replaces = existing ? bundleSourceOf(existing.entry) : undefined;
  if (existing && !replaces) {
    throw new BundleError(
      `There is a server named "${entryName}" in ${settings.path} already; choose another name with --name.`,
    );
  }
  return {
    manifest,
    files: archive.files,
    source: {
      name: manifest.name,
      version: manifest.version,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      signed: archive.signaturePresent,
      folder: entryName,
    },
    entryName,
    folder: path.join(bundlesFolder(dataDir), entryName),
    inputs: bundleInputs(manifest),
    author: manifest.author.name,
    ...(replaces ? { replaces } : {}),
  };
}

/** What the entry will run, sensitive values shown as `<secret>`, and what stops it from being written. */
export function previewBundle(prepared: PreparedBundle, given: BundleValues): BundlePreview {
  const checked = checkValues(prepared.inputs, given);
  const masked = { ...checked.values };
  for (const input of prepared.inputs) if (input.sensitive && masked[input.key]) masked[input.key] = ['<secret>'];
  // A required setting not filled yet is shown by name, so the review lists every variable the entry will have.
  for (const input of checked.missing) masked[input.key] = [`<${input.key}>`];
  const review = reviewServerEntry(prepared.entryName, fillMcpConfig(prepared.manifest, prepared.folder, masked));
  return {
    review,
    missing: checked.missing,
    problems: checked.problems,
    signature: prepared.source.signed ? 'Signature present, not verified' : 'Not signed',
  };
}

/**
 * Unpacks the bundle and writes its entry. Nothing is left behind when a value is missing or wrong, the unpacking
 * fails or the entry is refused; a replaced bundle's files are removed only once the new entry is written.
 */
export async function commitBundle(
  target: InstallTarget,
  dataDir: string,
  prepared: PreparedBundle,
  given: BundleValues,
  secrets: SecretSink,
): Promise<void> {
  const checked = checkValues(prepared.inputs, given);
  if (checked.missing.length > 0) throw new BundleError(describeMissingSettings(checked.missing));
  if (checked.problems.length > 0) {
    throw new BundleError(`Nothing was written: ${checked.problems.join(' ')}`);
  }
  const root = bundlesFolder(dataDir);
  await mkdir(root, { recursive: true });
  await removeAbandoned(root);
  const incoming = path.join(root, `.incoming-${randomUUID()}`);
  const outgoing = path.join(root, `.outgoing-${randomUUID()}`);
  let moved = false;
  try {
    await unpack(prepared.files, incoming);
    const values = { ...checked.values };
    for (const input of prepared.inputs) {
      if (!input.sensitive || !values[input.key]) continue;
      const stored: string[] = [];
      for (const value of values[input.key]!) stored.push(await secrets.store(prepared.entryName, input.key, value));
      values[input.key] = stored;
    }
    const entry = { ...fillMcpConfig(prepared.manifest, prepared.folder, values), source: { bundle: prepared.source } };
    if (prepared.replaces) {
      await rename(prepared.folder, outgoing).catch(() => undefined);
      moved = true;
    }
    await rename(incoming, prepared.folder);
    const written = await target.saveServer(
      prepared.entryName,
      entry,
      prepared.replaces ? prepared.entryName : undefined,
    );
    if (!written.saved) {
      await rm(prepared.folder, { recursive: true, force: true });
      const errors = written.problems.filter((problem) => problem.severity === 'error');
      throw new BundleError(
        `Not written: ${errors.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`,
      );
    }
    await rm(outgoing, { recursive: true, force: true });
  } catch (error) {
    await rm(incoming, { recursive: true, force: true });
    if (moved) await rename(outgoing, prepared.folder).catch(() => undefined);
    throw error;
  }
}

/**
 * Removes the unpacked files of an entry installed from a bundle (by its `source.bundle.folder`), and only a folder
 * directly inside `<data-dir>/mcp-bundles/`. Other entries are left alone.
 */
export async function removeBundleFiles(dataDir: string, entry: unknown): Promise<void> {
  const source = bundleSourceOf(entry);
  if (!source) return;
  const root = bundlesFolder(dataDir);
  const folder = path.resolve(root, source.folder);
  if (path.dirname(folder) !== root || source.folder.startsWith('.')) return;
  await rm(folder, { recursive: true, force: true });
}

export function bundlesFolder(dataDir: string): string {
  return path.resolve(dataDir, bundlesFolderName);
}

/** One message listing every required setting not given, with the flag that gives it. */
export function describeMissingSettings(missing: BundleInput[]): string {
  const flags = missing.map((input) => `--config ${input.key}=… (${input.title})`);
  return `Required settings are missing, so nothing was written:\n  ${flags.join('\n  ')}`;
}

/** `@scope/weather-server` → `weather-server`: the entry's and the folder's name. */
function defaultEntryName(bundleName: string): string {
  const last = bundleName.slice(bundleName.lastIndexOf('/') + 1).replace(/[^A-Za-z0-9._-]+/g, '-');
  return last.replace(/^[^A-Za-z0-9]+/, '') || 'bundle';
}

/** A bundle's config may not name Switchyard's secrets or this machine's variables: only its own settings. */
function refuseForeignReferences(manifest: BundleManifest): void {
  const found = /\$\{(secret|env):[^}]*\}/.exec(JSON.stringify(manifest.server.mcp_config));
  if (found) {
    throw new BundleError(
      `server.mcp_config holds ${found[0]}: a bundle may use only \${__dirname}, \${user_config.…} and the system ` +
        "folders, not Switchyard's secrets or environment.",
    );
  }
}

/** Temporary folders a killed install left behind; a day old, so that an install running alongside keeps its own. */
async function removeAbandoned(root: string): Promise<void> {
  for (const name of await readdir(root)) {
    if (!/^\.(incoming|outgoing)-/.test(name)) continue;
    const folder = path.join(root, name);
    const age = Date.now() - ((await stat(folder).catch(() => undefined))?.mtimeMs ?? Date.now());
    if (age > 24 * 60 * 60 * 1000) await rm(folder, { recursive: true, force: true });
  }
}

async function unpack(files: BundleFile[], folder: string): Promise<void> {
  await mkdir(folder);
  for (const file of files) {
    const target = path.resolve(folder, file.path);
    // The archive reader refused climbing paths already; this keeps the promise if that ever changes.
    if (!target.startsWith(folder + path.sep)) throw new BundleError(`"${file.path}" would be written outside.`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.data, { flag: 'wx' });
    if (file.mode) await chmod(target, file.mode & 0o755);
  }
}

function bundleSourceOf(entry: unknown): BundleSource | undefined {
  const bundle = (entry as { source?: { bundle?: Partial<BundleSource> } } | null)?.source?.bundle;
  if (typeof bundle?.folder !== 'string' || typeof bundle.name !== 'string') return undefined;
  return {
    name: bundle.name,
    version: String(bundle.version),
    sha256: String(bundle.sha256),
    signed: bundle.signed === true,
    folder: bundle.folder,
  };
}
