// `switchyard mcp import FILE`: copies servers from another app's config into ours. Claude Desktop
// (claude_desktop_config.json), Cursor (mcp.json) and Cline (cline_mcp_settings.json) all keep a top-level
// `mcpServers` in the same shape as ours, so entries are copied as they are, unknown fields included.
// A name we already have is never overwritten silently: an identical entry is skipped, a different one is
// reported as a conflict and kept unless the caller asks to overwrite.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { reviewServerEntry, type EntryReview } from '../../shared/mcp/review-entry.js';
import type { McpSecrets } from './mcp-secrets.js';
import { findSecrets, type FoundSecret } from '../../shared/mcp/secret-fields.js';
import { deleteUnreferenced, moveFoundSecrets } from './secret-edits.js';
import { referencedSecretNames } from './secret-references.js';
import { describeJsonError, readSettingsFile, updateSettingsFile, type RawSettings } from './settings-file.js';
import { formatProblem, parseEntry } from './settings-schema.js';

export interface ImportOptions {
  /** Replace servers whose name we already have with a different entry. */
  overwrite?: boolean;
  /** Move the values of secret-looking variables and headers into the secret store (`${secret:NAME}` in the file). */
  moveSecrets?: boolean;
}

export interface ImportReport {
  /** A guess at where the file comes from, for messages. */
  source: string;
  added: string[];
  replaced: string[];
  /** `conflict`: a different server of this name is configured; importing with `overwrite` replaces it. */
  skipped: { name: string; reason: string; conflict?: boolean }[];
  /** The values moved into the secret store, by where they were. */
  movedSecrets?: FoundSecret[];
}

const knownSources: Record<string, string> = {
  'claude_desktop_config.json': 'Claude Desktop',
  'mcp.json': 'Cursor',
  'cline_mcp_settings.json': 'Cline',
};

/** What an import would do, and what each server it adds or replaces will run, for the person to confirm. */
export interface ImportPreview extends ImportReport {
  reviews: EntryReview[];
  /** Values of secret-looking variables and headers in the servers it adds or replaces (moveSecrets moves them). */
  secrets: FoundSecret[];
}

/** `mcp import FILE` before it writes anything: what would be added, replaced or skipped, and what each runs. */
export async function previewImportFile(
  dataDir: string,
  filePath: string,
  options: ImportOptions = {},
): Promise<ImportPreview> {
  const { theirs, source } = await readConfigFile(filePath);
  const ours = (await readSettingsFile(dataDir)).raw ?? {};
  const { settings, report } = mergeServers(ours, theirs, options);
  const servers = settings.mcpServers ?? {};
  const names = [...report.added, ...report.replaced];
  const reviews = names.map((name) => reviewServerEntry(name, servers[name]));
  const secrets = findSecrets(Object.fromEntries(names.map((name) => [name, servers[name]])));
  return { source, ...report, reviews, secrets };
}

export async function importConfigFile(
  dataDir: string,
  filePath: string,
  options: ImportOptions = {},
  secrets?: McpSecrets,
): Promise<ImportReport> {
  const { theirs, source } = await readConfigFile(filePath);
  return importServers(dataDir, theirs, source, options, secrets);
}

/**
 * Merges `theirs` into the settings; with `moveSecrets`, the secrets of the servers it adds or replaces are stored
 * first and the file gets their references. Secrets of replaced servers that nothing references then are deleted.
 */
export async function importServers(
  dataDir: string,
  theirs: unknown,
  source: string,
  options: ImportOptions,
  secrets: McpSecrets | undefined,
): Promise<ImportReport> {
  const ours = (await readSettingsFile(dataDir)).raw;
  const planned = mergeServers(ours ?? {}, theirs, options).report;
  const replacedNames = referencedSecretNames(planned.replaced.map((name) => ours?.mcpServers?.[name]));
  let written = theirs;
  let movedSecrets: FoundSecret[] | undefined;
  if (options.moveSecrets) {
    if (!secrets) throw new Error('Secrets cannot be moved here: no secret store is open.');
    const names = [...planned.added, ...planned.replaced];
    ({ theirs: written, moved: movedSecrets } = await moveFoundSecrets(secrets, theirs, names, ours));
  }
  let report: ImportReport | undefined;
  const after = await updateSettingsFile(dataDir, (current) => {
    const merged = mergeServers(current, written, options);
    report = { source, ...merged.report, ...(movedSecrets ? { movedSecrets } : {}) };
    return merged.settings;
  });
  if (secrets) await deleteUnreferenced(secrets, replacedNames, after);
  if (!report) throw new Error('the settings file was not updated');
  return report;
}

async function readConfigFile(filePath: string): Promise<{ theirs: unknown; source: string }> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read ${filePath}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return {
      theirs: JSON.parse(text.replace(/^\uFEFF/, '')),
      source: knownSources[path.basename(filePath)] ?? 'config',
    };
  } catch (error) {
    // Not the parse error as the cause: its message quotes the text around the error, which may hold a secret.
    // eslint-disable-next-line preserve-caught-error
    throw new Error(`${filePath} ${describeJsonError(text, error)}`);
  }
}

/** Pure: our raw settings with their servers merged in, and what happened to each. */
export function mergeServers(
  ours: RawSettings,
  theirs: unknown,
  options: ImportOptions = {},
): { settings: RawSettings; report: Omit<ImportReport, 'source'> } {
  const servers = (theirs as { mcpServers?: unknown } | null)?.mcpServers;
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    throw new Error(
      'The file has no "mcpServers" object; expected a Claude Desktop, Cursor or Cline config (claude_desktop_config.json, mcp.json, cline_mcp_settings.json).',
    );
  }
  const existing = isObject(ours.mcpServers) ? ours.mcpServers : {};
  const next: Record<string, unknown> = { ...existing };
  const report: Omit<ImportReport, 'source'> = { added: [], replaced: [], skipped: [] };
  for (const [name, entry] of Object.entries(servers as Record<string, unknown>)) {
    const errors = parseEntry(name, entry).problems.filter((problem) => problem.severity === 'error');
    if (errors.length > 0) {
      report.skipped.push({ name, reason: `invalid entry: ${errors.map(formatProblem).join('; ')}` });
      continue;
    }
    if (name in existing) {
      if (JSON.stringify(existing[name]) === JSON.stringify(entry)) {
        report.skipped.push({ name, reason: 'already present, identical' });
        continue;
      }
      if (!options.overwrite) {
        // How to replace it is the caller's to say: the CLI has --overwrite, the app a button.
        report.skipped.push({ name, reason: 'a different server with this name exists', conflict: true });
        continue;
      }
      report.replaced.push(name);
    } else {
      report.added.push(name);
    }
    next[name] = structuredClone(entry);
  }
  return { settings: { ...ours, mcpServers: next }, report };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
