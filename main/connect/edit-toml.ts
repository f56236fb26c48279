// Sets root keys and one table of a TOML file (Codex's config.toml) by editing its lines, so that the person's
// comments and layout stay: a root key's line is replaced where it stands (or the key is added before the first
// table, where TOML wants root keys), and the table is rewritten as one block at the end. smol-toml then parses
// the result: it must hold exactly the new values, and everything else must equal what the file held before, or
// the file is left alone and the person gets the lines to add by hand.

import { isDeepStrictEqual } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import { ConnectError } from './connect-error.js';

export interface TomlSettings {
  /** Root keys to set. */
  root: Readonly<Record<string, string>>;
  /** The table written whole (`model_providers.switchyard`): its dotted name and its keys. */
  table: { name: string; values: Readonly<Record<string, string>> };
}

export function parseTomlSettings(current: string | null, what: string): Record<string, unknown> {
  if (current === null || current.trim() === '') return {};
  try {
    return parseToml(current) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ConnectError(`${what} is not valid TOML (${reason}): fix it, then connect again.`);
  }
}

export function setTomlValues(current: string | null, settings: TomlSettings, what: string): string {
  const before = parseTomlSettings(current, what);
  const lines = current === null || current.trim() === '' ? [] : current.replace(/\r?\n$/, '').split(/\r?\n/);
  const headers = headerLines(lines);
  const tableName = normalTableName(settings.table.name);

  // Drop the table as an earlier connect wrote it (from its header to the next one).
  const ownHeader = headers.find((header) => header.name === tableName);
  if (ownHeader) {
    const next = headers.find((header) => header.index > ownHeader.index);
    lines.splice(ownHeader.index, (next?.index ?? lines.length) - ownHeader.index);
  }
  const firstTable = headerLines(lines)[0]?.index ?? lines.length;

  const missing: string[] = [];
  for (const [key, value] of Object.entries(settings.root)) {
    const keyLine = lines.slice(0, firstTable).findIndex((line) => new RegExp(`^\\s*${key}\\s*=`).test(line));
    if (keyLine >= 0) lines[keyLine] = `${key} = ${tomlString(value)}`;
    else missing.push(`${key} = ${tomlString(value)}`);
  }
  // New root keys go after the last root line, before the blank lines that lead to the first table.
  let insertAt = firstTable;
  while (insertAt > 0 && lines[insertAt - 1]!.trim() === '') insertAt--;
  const spacer = missing.length > 0 && (lines[insertAt]?.trim() ?? '') !== '' ? [''] : [];
  lines.splice(insertAt, 0, ...missing, ...spacer);

  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  if (lines.length > 0) lines.push('');
  lines.push(`[${settings.table.name}]`);
  for (const [key, value] of Object.entries(settings.table.values)) lines.push(`${key} = ${tomlString(value)}`);
  const text = `${lines.join('\n')}\n`;

  verify(before, text, settings, what);
  return text;
}

/** What connect adds, as text to paste: for the person to add by hand, and for `--print`. */
export function tomlFragment(settings: TomlSettings): string {
  return setTomlValues(null, settings, 'the fragment');
}

function verify(before: Record<string, unknown>, text: string, settings: TomlSettings, what: string): void {
  let after: Record<string, unknown>;
  try {
    after = parseToml(text) as Record<string, unknown>;
  } catch {
    after = {};
  }
  const tablePath = settings.table.name.split('.');
  const expectedTable = settings.table.values;
  const unchangedElsewhere = isDeepStrictEqual(withoutOurs(before, settings), withoutOurs(after, settings));
  const rootSet = Object.entries(settings.root).every(([key, value]) => after[key] === value);
  if (
    !unchangedElsewhere ||
    !rootSet ||
    !isDeepStrictEqual(structuredClone(valueAt(after, tablePath)), { ...expectedTable })
  ) {
    throw new ConnectError(
      `${what} is laid out in a way connect does not edit safely; it was left unchanged. Add these lines by hand ` +
        `(root keys above the first [table]):\n${tomlFragmentUnchecked(settings)}`,
    );
  }
}

function tomlFragmentUnchecked(settings: TomlSettings): string {
  const root = Object.entries(settings.root).map(([key, value]) => `${key} = ${tomlString(value)}`);
  const table = Object.entries(settings.table.values).map(([key, value]) => `${key} = ${tomlString(value)}`);
  return [...root, '', `[${settings.table.name}]`, ...table].join('\n');
}

/** A deep copy (plain objects: smol-toml's have no prototype) without the root keys and the table connect sets (and without a table left empty by that). */
function withoutOurs(value: Record<string, unknown>, settings: TomlSettings): Record<string, unknown> {
  const copy = structuredClone(value);
  for (const key of Object.keys(settings.root)) delete copy[key];
  const path = settings.table.name.split('.');
  const parent = valueAt(copy, path.slice(0, -1));
  if (parent && typeof parent === 'object') {
    delete (parent as Record<string, unknown>)[path[path.length - 1]!];
    if (path.length > 1 && Object.keys(parent).length === 0) {
      const grandParent = valueAt(copy, path.slice(0, -2)) as Record<string, unknown> | undefined;
      if (grandParent) delete grandParent[path[path.length - 2]!];
    }
  }
  return copy;
}

function valueAt(value: unknown, path: string[]): unknown {
  let node = value;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

interface HeaderLine {
  index: number;
  name: string;
}

/** The `[table]` and `[[array]]` header lines, skipping lines inside multi-line strings. */
function headerLines(lines: string[]): HeaderLine[] {
  const headers: HeaderLine[] = [];
  let inMultiline: string | null = null;
  lines.forEach((line, index) => {
    for (const delimiter of ['"""', "'''"]) {
      if (inMultiline !== null && inMultiline !== delimiter) continue;
      if (line.split(delimiter).length % 2 === 0) inMultiline = inMultiline === null ? delimiter : null;
    }
    if (inMultiline !== null) return;
    const header = /^\s*\[\[?([^\]]+)\]\]?\s*(?:#.*)?$/.exec(line);
    if (header) headers.push({ index, name: normalTableName(header[1]!) });
  });
  return headers;
}

/** `model_providers . "switchyard"` and `model_providers.switchyard` name the same table. */
function normalTableName(name: string): string {
  return name
    .split('.')
    .map((part) => part.trim().replace(/^["']|["']$/g, ''))
    .join('.');
}

/** JSON's string escapes are all valid in a TOML basic string. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}
