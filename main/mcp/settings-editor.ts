// Edits of `mcp_settings.json` for the UI: the file as text (the raw editor) and as entries (the form), and the
// small changes the server list makes (enable, auto-approve a tool, remove). Every write is a read-modify-write of
// the raw JSON, atomic, keeping fields we do not know; a change that would leave an entry invalid is not written
// and comes back as problems with the exact field, for the UI to show next to it. Only McpManager calls these: its
// methods queue each write with its reloads and apply the result.

import { ApiError } from '../../shared/api/index.js';
import { importServers, mergeServers, type ImportOptions, type ImportReport } from './import-config.js';
import type { McpSecrets } from './mcp-secrets.js';
import { parseSettingsText, readSettingsFile, updateSettingsFile, type RawSettings } from './settings-file.js';
import { writeFileAtomic } from '../files/index.js';
import { parseEntry } from './settings-schema.js';
import type { SettingsProblem } from './types.js';
import type { OAuthCredentials } from './oauth/index.js';

/** One server as the file has it, for the form: unknown fields included, so that saving keeps them. */
export interface EditableServer {
  name: string;
  /** The entry as written; null when it is not an object (its problems say so). */
  entry: Record<string, unknown> | null;
  problems: SettingsProblem[];
  /** The entry names a client registered by hand and its secret is in the secret store (never the secret). */
  clientSecretSet?: boolean;
}

export interface EditableSettings {
  path: string;
  /** The file as it is, for the raw editor. */
  text: string;
  servers: EditableServer[];
  /** File-level and entry problems. */
  problems: SettingsProblem[];
}

export interface SettingsWrite {
  /** False when errors kept the change from being written. */
  saved: boolean;
  /** Errors (nothing was written) or warnings (written, with a corrected value). */
  problems: SettingsProblem[];
}

export async function readEditableSettings(
  dataDir: string,
  oauth?: Pick<OAuthCredentials, 'readClientSecret'>,
): Promise<EditableSettings> {
  const file = await readSettingsFile(dataDir);
  const written = isObject(file.raw?.mcpServers) ? file.raw.mcpServers : {};
  const servers = file.entries.map(async ({ name, config, problems }): Promise<EditableServer> => {
    const entry = written[name];
    const clientId = config && config.transport !== 'stdio' ? config.oauth?.clientId : undefined;
    const secretSet = clientId && oauth ? (await oauth.readClientSecret(name)) !== undefined : undefined;
    return { name, entry: isObject(entry) ? entry : null, problems, ...(secretSet ? { clientSecretSet: true } : {}) };
  });
  return { path: file.path, text: file.text, servers: await Promise.all(servers), problems: file.problems };
}

/**
 * Replaces the whole file with `text` as typed (its formatting kept), unless it is not valid JSON or an entry has
 * an error. With `expectedText`, refuses (409) when the file changed since the editor loaded it. Unlike the other
 * edits this may replace a file that is not valid JSON: the raw editor is where such a file gets fixed.
 */
export async function saveSettingsText(dataDir: string, text: string, expectedText?: string): Promise<SettingsWrite> {
  const current = await readSettingsFile(dataDir);
  if (expectedText !== undefined && current.text !== expectedText) {
    throw new ApiError(409, 'The settings file changed since it was opened here: reload it, then edit again.');
  }
  const parsed = parseSettingsText(current.path, text);
  const errors = parsed.problems.filter((problem) => problem.severity === 'error');
  if (!parsed.raw || errors.length > 0) return { saved: false, problems: parsed.problems };
  await writeFileAtomic(current.path, text.endsWith('\n') ? text : `${text}\n`);
  return { saved: true, problems: parsed.problems };
}

/**
 * Adds a server, or replaces one (`previousName`: the name it had, so it can be renamed in place). The entry is
 * checked first; with errors nothing is written. 409 when the name belongs to another server.
 */
export async function saveServerEntry(
  dataDir: string,
  name: string,
  entry: Record<string, unknown>,
  previousName?: string,
): Promise<SettingsWrite> {
  const problems = parseEntry(name, entry).problems;
  if (problems.some((problem) => problem.severity === 'error')) return { saved: false, problems };
  await editServers(dataDir, (servers) => {
    const renaming = previousName !== undefined && previousName !== name;
    if (previousName !== undefined && !(previousName in servers)) throw noServer(previousName);
    if ((previousName === undefined || renaming) && name in servers) {
      throw new ApiError(409, `There is a server named "${name}" already: choose another name.`);
    }
    // Rebuilt in order, so a renamed or edited server keeps its place in the file.
    const next: Record<string, unknown> = {};
    for (const [existing, value] of Object.entries(servers)) next[existing === previousName ? name : existing] = value;
    next[name] = entry;
    return next;
  });
  return { saved: true, problems };
}

/** False when there was no such server. */
export async function removeServerEntry(dataDir: string, name: string): Promise<boolean> {
  let removed = false;
  await editServers(dataDir, (servers) => {
    removed = name in servers;
    const { [name]: _removed, ...rest } = servers;
    return rest;
  });
  return removed;
}

export async function setServerDisabled(dataDir: string, name: string, disabled: boolean): Promise<void> {
  await editEntry(dataDir, name, (entry) => {
    if (disabled) entry.disabled = true;
    else delete entry.disabled;
  });
}

/** Sets the id of the client registered by hand for the server's OAuth (`oauth.clientId`), or removes it. */
export async function setServerOAuthClientId(dataDir: string, name: string, clientId: string | undefined) {
  await editEntry(dataDir, name, (entry) => {
    const { clientId: _previous, ...oauth } = isObject(entry.oauth) ? entry.oauth : {};
    if (clientId !== undefined) oauth.clientId = clientId;
    if (Object.keys(oauth).length > 0) entry.oauth = oauth;
    else delete entry.oauth;
  });
}

/** Adds `tool` to or removes it from the server's autoApprove list; returns the new list. */
export function setToolAutoApprove(dataDir: string, name: string, tool: string, autoApprove: boolean) {
  return setToolListed(dataDir, name, 'autoApprove', tool, autoApprove);
}

export function setToolDisabled(dataDir: string, name: string, tool: string, disabled: boolean) {
  return setToolListed(dataDir, name, 'disabledTools', tool, disabled);
}

/**
 * Adds `tool` to or removes it from one of the entry's tool lists and returns the new list. Whatever in the list is
 * not a tool name (a number typed by hand) is dropped, so the entry stays valid.
 */
async function setToolListed(
  dataDir: string,
  name: string,
  field: 'autoApprove' | 'disabledTools',
  tool: string,
  listed: boolean,
): Promise<string[]> {
  let list: string[] = [];
  await editEntry(dataDir, name, (entry) => {
    const value = entry[field];
    const current = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
    list = listed ? [...new Set([...current, tool])] : current.filter((item) => item !== tool);
    entry[field] = list;
  });
  return list;
}

/** `switchyard mcp import` for text the UI read from a Claude Desktop, Cursor or Cline config. */
export async function importSettingsText(
  dataDir: string,
  text: string,
  options: ImportOptions & { source?: string } = {},
  secrets?: McpSecrets,
): Promise<ImportReport> {
  let theirs: unknown;
  try {
    theirs = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ApiError(400, `That file is not valid JSON: ${(error as Error).message}`);
  }
  try {
    mergeServers({}, theirs); // only its shape: is there an mcpServers object
  } catch (error) {
    throw new ApiError(400, (error as Error).message);
  }
  await requireValidSettings(dataDir);
  return importServers(dataDir, theirs, options.source ?? 'config', options, secrets);
}

async function editSettings(dataDir: string, change: (raw: RawSettings) => RawSettings | void): Promise<void> {
  await requireValidSettings(dataDir);
  await updateSettingsFile(dataDir, change);
}

/** 409 when the file is not valid JSON: edits other than the raw editor's must not replace it. */
async function requireValidSettings(dataDir: string): Promise<void> {
  const current = await readSettingsFile(dataDir);
  if (!current.raw) {
    const why = current.problems[0]?.message ?? 'is not valid';
    throw new ApiError(409, `The settings file ${why}: fix it in the JSON editor first.`);
  }
}

function editServers(
  dataDir: string,
  change: (servers: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  return editSettings(dataDir, (raw) => {
    raw.mcpServers = change(isObject(raw.mcpServers) ? raw.mcpServers : {});
  });
}

function editEntry(dataDir: string, name: string, change: (entry: Record<string, unknown>) => void): Promise<void> {
  return editServers(dataDir, (servers) => {
    const entry = servers[name];
    if (!isObject(entry)) throw noServer(name);
    change(entry);
    return servers;
  });
}

function noServer(name: string): ApiError {
  return new ApiError(404, `There is no MCP server "${name}" in the settings.`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
