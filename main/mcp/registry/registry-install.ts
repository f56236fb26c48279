// Installing a server from a registry, in the order a person needs it: find the server and the option the rule
// picks (install-plan.ts), say which values it takes, show exactly what will run and what changes (for an update),
// report a runtime the machine lacks — and only then, confirmed, write the entry through the MCP manager, the
// settings file's only writer. Secret values go through a SecretSink, which returns what the file holds instead.

import type { InstallInput, RunsWith } from '../../../shared/mcp/registry-types.js';
import { reviewServerEntry, type EntryReview } from '../../../shared/mcp/review-entry.js';
import type { EditableSettings, SettingsWrite } from '../settings-editor.js';
import {
  chooseInstallOption,
  installInputs,
  InstallPlanError,
  optionRunsWith,
  planInstall,
  type InstallOption,
  type InstallSource,
} from './install-plan.js';
import type { McpSecrets } from '../mcp-secrets.js';
import { newSecretName } from '../secret-references.js';
import type { RegistryClient } from './registry-client.js';
import type { RegistryServer } from './server-json.js';
import { describeMissingProgram, findProgram } from './runtime-check.js';

/** Where secret values go; `store` returns what the settings file holds in their place (a reference). */
export interface SecretSink {
  store(entry: string, field: string, value: string): Promise<string>;
}

/**
 * The secret store behind `${secret:NAME}` (mcp-secrets.ts): each value under a name of its entry and field that no
 * entry uses yet (`weather.API_KEY`, or `weather.API_KEY-2` for an update's new value, so that the value the running
 * server uses is not overwritten before the file is; the old one is deleted once nothing references it). Without a
 * store, a secret value is refused: the settings file never holds one.
 */
export function secretStoreSink(secrets: McpSecrets | undefined, taken: Iterable<string>): SecretSink {
  const used = new Set(taken);
  return {
    async store(entry, field, value) {
      if (!secrets)
        throw new InstallPlanError('Secret values cannot be stored here (no secret store), so nothing was written.');
      const name = newSecretName(entry, field, used);
      used.add(name);
      return secrets.store(name, value);
    },
  };
}

/** The part of McpManager an install uses: it reads the entries and writes one. */
export interface InstallTarget {
  readSettings(): Promise<EditableSettings>;
  saveServer(name: string, entry: Record<string, unknown>, previousName?: string): Promise<SettingsWrite>;
  /** The names of the secrets the entries reference, and the store they are in (none: secret values are refused). */
  listSecrets(): Promise<{ name: string }[]>;
  readonly secrets: McpSecrets | undefined;
}

export interface InstalledServer {
  /** The entry's name in mcp_settings.json. */
  entryName: string;
  source: InstallSource;
}

export interface PreparedInstall {
  registry: string;
  found: RegistryServer;
  option: InstallOption;
  runsWith: RunsWith;
  entryName: string;
  inputs: InstallInput[];
  /** Set when an entry was installed from this registry server before: the install updates it. */
  installed?: { version: string; entry: Record<string, unknown>; values: Record<string, string> };
}

export interface InstallPreview {
  /** What will run (the URL for a remote) and the names of its environment variables or headers. */
  review: EntryReview;
  /** For an update: what changes, one line each (version, command, names added or removed). */
  changes: string[];
  /** Required values still missing: nothing may be written while any is. */
  missing: InstallInput[];
  /** The runtime is not on the servers' PATH: what to install. Nothing may be written while set. */
  missingRuntime?: string;
}

/** The entries that came from a registry, by where they came from. */
export function installedServers(settings: EditableSettings): InstalledServer[] {
  return settings.servers.flatMap(({ name, entry }) => {
    const source = sourceOf(entry);
    return source ? [{ entryName: name, source }] : [];
  });
}

/** Asks the registry for `name` (at `version`, else its latest) and works out what installing it means here. */
export async function prepareInstall(
  target: InstallTarget,
  client: RegistryClient,
  request: { name: string; version?: string; entryName?: string },
): Promise<PreparedInstall> {
  const found = await client.server(request.name, request.version ?? 'latest');
  const option = chooseInstallOption(found.server);
  if (!option) {
    const kinds = (found.server.packages ?? []).map((pkg) => pkg.registryType).join(', ') || 'none';
    throw new InstallPlanError(
      `"${found.server.name}" has nothing Switchyard can install yet (packages: ${kinds}; remotes: ` +
        `${found.server.remotes?.length ?? 0}).`,
    );
  }
  const settings = await target.readSettings();
  const previous = installedServers(settings).find((server) => server.source.name === found.server.name);
  const entryName = request.entryName ?? previous?.entryName ?? defaultEntryName(found.server.name);
  if (!previous && settings.servers.some((server) => server.name === entryName)) {
    throw new InstallPlanError(
      `There is a server named "${entryName}" in ${settings.path} already; choose another name with --name.`,
    );
  }
  const prepared: PreparedInstall = {
    registry: client.baseUrl,
    found,
    option,
    runsWith: optionRunsWith(found.server, option),
    entryName,
    inputs: installInputs(found.server, option),
  };
  if (previous) {
    const entry = settings.servers.find((server) => server.name === previous.entryName)?.entry ?? {};
    prepared.installed = { version: previous.source.version, entry, values: valuesOf(entry, previous.source) };
  }
  return prepared;
}

/** What the install would write, shown without secret values, and whether anything stops it. */
export async function previewInstall(
  prepared: PreparedInstall,
  values: Record<string, string>,
  searchPath: string,
): Promise<InstallPreview> {
  const masked = { ...withPrevious(prepared, values) };
  for (const input of prepared.inputs) if (input.secret && masked[input.key]) masked[input.key] = '<secret>';
  const plan = planInstall(prepared.found.server, prepared.option, masked, { registry: prepared.registry });
  const review = reviewServerEntry(prepared.entryName, plan.entry);
  const changes = prepared.installed ? describeChanges(prepared, review) : [];
  const preview: InstallPreview = { review, changes, missing: plan.missing };
  if (plan.program && !(await findProgram(plan.program, searchPath))) {
    preview.missingRuntime = describeMissingProgram(plan.program, searchPath);
  }
  return preview;
}

/** Writes the entry: secrets through `secrets` first, so the file holds what the sink returns. */
export async function commitInstall(
  target: InstallTarget,
  prepared: PreparedInstall,
  values: Record<string, string>,
  secrets: SecretSink,
): Promise<SettingsWrite> {
  const given = withPrevious(prepared, values);
  const stored = { ...given };
  for (const input of prepared.inputs) {
    const value = given[input.key];
    // A value taken over from the installed entry is already what the file holds (a reference, or the value).
    if (!input.secret || value === undefined || value === '' || value === prepared.installed?.values[input.key])
      continue;
    stored[input.key] = await secrets.store(prepared.entryName, input.key, value);
  }
  const plan = planInstall(prepared.found.server, prepared.option, stored, { registry: prepared.registry });
  if (plan.missing.length > 0) throw new InstallPlanError(describeMissing(plan.missing));
  return target.saveServer(prepared.entryName, plan.entry, prepared.installed ? prepared.entryName : undefined);
}

/** One message listing every required value not given, with the flag that gives it. */
export function describeMissing(missing: InstallInput[]): string {
  const flags = missing.map(
    (input) => `--${input.kind} ${input.key}=…${input.description ? ` (${input.description})` : ''}`,
  );
  return `Required values are missing, so nothing was written:\n  ${flags.join('\n  ')}`;
}

/** `io.github.user/weather` → `weather`: the part after the namespace, as the entry's name. */
export function defaultEntryName(registryName: string): string {
  return registryName.slice(registryName.lastIndexOf('/') + 1) || registryName;
}

/** Whether `latest` is newer than `installed`: by semantic version when both are, else whenever they differ. */
export function isNewerVersion(latest: string, installed: string): boolean {
  const parse = (version: string) => /^v?(\d+)\.(\d+)\.(\d+)(-[\w.-]+)?/.exec(version);
  const a = parse(latest);
  const b = parse(installed);
  if (!a || !b) return latest !== installed;
  for (const index of [1, 2, 3]) {
    const difference = Number(a[index]) - Number(b[index]);
    if (difference !== 0) return difference > 0;
  }
  if (a[4] === b[4]) return false;
  return a[4] === undefined || (b[4] !== undefined && a[4] > b[4]);
}

function withPrevious(prepared: PreparedInstall, values: Record<string, string>): Record<string, string> {
  return { ...prepared.installed?.values, ...values };
}

/** The values an installed entry was made with: its env and headers by name, its arguments from `source`. */
function valuesOf(entry: Record<string, unknown>, source: InstallSource): Record<string, string> {
  return { ...stringsOf(entry.env), ...stringsOf(entry.headers), ...source.arguments };
}

function describeChanges(prepared: PreparedInstall, next: EntryReview): string[] {
  const installed = prepared.installed!;
  const before = reviewServerEntry(prepared.entryName, installed.entry);
  const changes = [`version: ${installed.version} → ${prepared.found.server.version}`];
  if (before.runs !== next.runs) changes.push(`runs: ${before.runs}`, `   → ${next.runs}`);
  const added = next.envNames.filter((name) => !before.envNames.includes(name));
  const removed = before.envNames.filter((name) => !next.envNames.includes(name));
  if (added.length > 0) changes.push(`adds ${added.join(', ')}`);
  if (removed.length > 0) changes.push(`removes ${removed.join(', ')}`);
  return changes;
}

function sourceOf(entry: Record<string, unknown> | null): InstallSource | undefined {
  const source = entry?.source as Partial<InstallSource> | undefined;
  if (typeof source?.registry !== 'string' || typeof source.name !== 'string' || typeof source.version !== 'string') {
    return undefined;
  }
  return {
    registry: source.registry,
    name: source.name,
    version: source.version,
    ...(source.arguments ? { arguments: stringsOf(source.arguments) } : {}),
  };
}

function stringsOf(value: unknown): Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
  );
}
