// Install links (docs/decisions/040-install-links.md): `switchyard://mcp/install?name=io.github.x/y[&version=…]
// [&registry=URL]` names a registry server; `switchyard://mcp/install?name=ENTRY&config=BASE64URL` carries one entry
// of mcp_settings.json, as Cursor's and LM Studio's links do. A link comes from any web page, so it is read
// strictly: anything it could mean beyond that is refused with a message for the confirmation page, and what it
// would write is only ever shown here — writing waits for the person's confirmation (confirmInstallLink).

import type { InstallLinkPreview } from '../../shared/mcp/install-link.js';
import { installLinkPrefix } from '../../shared/mcp/install-link.js';
import { reviewServerEntry } from '../../shared/mcp/review-entry.js';
import { findSecrets } from '../../shared/mcp/secret-fields.js';
import type { ImportReport } from './import-config.js';
import { normalizeRegistryUrl } from './registry/index.js';
import type { EditableSettings } from './settings-editor.js';
import { formatProblem, parseEntry } from './settings-schema.js';

/** Longer links are refused: a real entry fits in far less, and browsers and OSes cut long URLs differently. */
export const maxInstallLinkLength = 8 * 1024;

/** A link that cannot be installed; its message says why, for the person who opened it. */
export class InstallLinkError extends Error {
  override name = 'InstallLinkError';
}

export type InstallLink =
  | { kind: 'registry'; name: string; version?: string; registry?: string }
  | { kind: 'config'; name: string; entry: Record<string, unknown> };

/** The registry's own pattern for server names (server.schema.json). */
const registryNamePattern = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const versionPattern = /^[\w.+-]{1,255}$/;
/** Characters that make a shell run something else; a command is one program's name and has none. */
const shellCommandCharacters = /[;|&$`<>\n\r\0]/;
/** `${secret:…}` and `${env:…}` resolve from this machine: a link naming them would hand a stranger's server
 * another server's secret or the app's environment. */
const localReference = /\$\{\s*(secret|env)\s*:/i;
const base64Pattern = /^[A-Za-z0-9+/_-]+={0,2}$/;

export function parseInstallLink(link: string): InstallLink {
  if (link.length > maxInstallLinkLength) {
    throw new InstallLinkError(
      `The link is ${link.length} characters long; an install link has at most ${maxInstallLinkLength}.`,
    );
  }
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new InstallLinkError('This is not a link Switchyard can read.');
  }
  if (`${url.protocol}//${url.host}${url.pathname}`.toLowerCase() !== installLinkPrefix) {
    throw new InstallLinkError(
      `Switchyard does not know the link ${JSON.stringify(`${url.protocol}//${url.host}${url.pathname}`)}; install links start with ${installLinkPrefix}?`,
    );
  }
  const params = linkParams(url.searchParams);
  const name = params.get('name');
  if (name === undefined || name.trim() === '') throw new InstallLinkError('The link names no server (name=…).');
  const config = params.get('config');
  if (config !== undefined) {
    rejectUnknown(params, ['name', 'config']);
    return { kind: 'config', name: checkEntryName(name), entry: decodeEntry(name, config) };
  }
  rejectUnknown(params, ['name', 'version', 'registry']);
  if (!registryNamePattern.test(name)) {
    throw new InstallLinkError(
      `${JSON.stringify(name)} is not a registry server name (e.g. io.github.owner/server); a link with a config needs config=….`,
    );
  }
  const version = params.get('version');
  if (version !== undefined && (!versionPattern.test(version) || version === 'latest')) {
    throw new InstallLinkError(`${JSON.stringify(version)} is not a version (e.g. 1.2.3).`);
  }
  const registry = params.get('registry');
  return {
    kind: 'registry',
    name,
    ...(version ? { version } : {}),
    ...(registry !== undefined ? { registry: registryOf(registry) } : {}),
  };
}

/** What the link would write, for its confirmation; `registryUrl` is the registry the app uses. */
export function previewInstallLink(
  link: string,
  settings: Pick<EditableSettings, 'servers'>,
  registryUrl: string,
): InstallLinkPreview {
  const parsed = parseInstallLink(link);
  if (parsed.kind === 'registry') {
    return { ...parsed, otherRegistry: parsed.registry !== undefined && parsed.registry !== registryUrl };
  }
  const taken = new Set(settings.servers.map((server) => server.name));
  return {
    kind: 'config',
    requestedName: parsed.name,
    entryName: freeName(parsed.name, taken),
    clash: taken.has(parsed.name),
    review: reviewServerEntry(parsed.name, parsed.entry),
    secrets: findSecrets({ [parsed.name]: parsed.entry }).map((secret) => secret.key),
  };
}

/** The part of McpManager a confirmed link writes through: the import's path, which moves secrets first. */
export interface LinkInstallTarget {
  readSettings(): Promise<Pick<EditableSettings, 'servers'>>;
  importSettingsText(
    text: string,
    options: { overwrite?: boolean; moveSecrets?: boolean; source?: string },
  ): Promise<ImportReport>;
}

/** Writes a config link's entry as `entryName` (the link's name, or the one the person chose for a clash). */
export async function confirmInstallLink(target: LinkInstallTarget, link: string, entryName: string): Promise<string> {
  const parsed = parseInstallLink(link);
  if (parsed.kind !== 'config') throw new InstallLinkError('A registry link installs through the registry’s form.');
  const name = checkEntryName(entryName);
  if ((await target.readSettings()).servers.some((server) => server.name === name)) {
    throw new InstallLinkError(`A server named ${JSON.stringify(name)} exists already; choose another name.`);
  }
  const report = await target.importSettingsText(JSON.stringify({ mcpServers: { [name]: parsed.entry } }), {
    overwrite: false,
    moveSecrets: true,
    source: 'install link',
  });
  if (!report.added.includes(name)) {
    throw new InstallLinkError(report.skipped.map((skipped) => `${skipped.name}: ${skipped.reason}`).join('; '));
  }
  return name;
}

function linkParams(search: URLSearchParams): Map<string, string> {
  const params = new Map<string, string>();
  for (const [key, value] of search) {
    if (params.has(key)) throw new InstallLinkError(`The link gives ${key}= twice.`);
    params.set(key, value);
  }
  return params;
}

function rejectUnknown(params: Map<string, string>, known: string[]): void {
  const unknown = [...params.keys()].filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw new InstallLinkError(
      `The link has parameters Switchyard does not know: ${unknown.join(', ')} (it takes ${known.join(', ')}).`,
    );
  }
}

function checkEntryName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length > 200 || /[\p{Cc}]/u.test(trimmed)) {
    throw new InstallLinkError('The server name must be at most 200 characters, without control characters.');
  }
  return trimmed;
}

function registryOf(value: string): string {
  try {
    return normalizeRegistryUrl(value);
  } catch (error) {
    throw new InstallLinkError((error as Error).message, { cause: error });
  }
}

/** The entry the link carries: base64url (or base64) of its JSON, checked as mcp_settings.json checks entries. */
function decodeEntry(name: string, config: string): Record<string, unknown> {
  const compact = config.trim();
  if (!base64Pattern.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) {
    throw new InstallLinkError('The link’s config is not base64url text.');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(
      Buffer.from(compact.replaceAll('-', '+').replaceAll('_', '/'), 'base64'),
    );
  } catch {
    throw new InstallLinkError('The link’s config does not decode to UTF-8 text.');
  }
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    throw new InstallLinkError('The link’s config is not JSON.');
  }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw new InstallLinkError('The link’s config must be one server entry, a JSON object (as in mcp_settings.json).');
  }
  if ('mcpServers' in entry) {
    throw new InstallLinkError('The link’s config must be one server entry, not a whole mcpServers file.');
  }
  const errors = parseEntry(name, entry).problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0) {
    throw new InstallLinkError(
      `The link’s config is not a valid server entry: ${errors.map(formatProblem).join('; ')}`,
    );
  }
  const command = (entry as { command?: unknown }).command;
  const found = typeof command === 'string' ? shellCommandCharacters.exec(command) : null;
  if (found) {
    throw new InstallLinkError(
      `The link’s command ${JSON.stringify(command)} holds the shell character ${JSON.stringify(found[0])}: a command ` +
        'is one program’s name. Switchyard refuses it — such a link tries to run more than a server.',
    );
  }
  if (localReference.test(text)) {
    throw new InstallLinkError(
      'The link’s config refers to a secret or environment variable of this computer (${secret:…} or ${env:…}); a link may not.',
    );
  }
  return entry as Record<string, unknown>;
}

function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let index = 2; ; index++) {
    if (!taken.has(`${name}-${index}`)) return `${name}-${index}`;
  }
}
